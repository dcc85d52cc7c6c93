#!/usr/bin/env bash
# Runs one task's baseline through the arena (used by arena_task). The test's
# working directory is the runfiles tree, which holds the task, the arena
# binary and the plugins' harness files.
set -euo pipefail
task_id="$1"
exec tools/arena/arena --root . tasks --validate --tasks "$task_id"
