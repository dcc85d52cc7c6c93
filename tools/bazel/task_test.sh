#!/usr/bin/env bash
# Runs one task's baseline through the arena (used by arena_task) on the CPU
# ("cpu": never a GPU, even on a GPU host) or on a GPU ("gpu": fails without
# one). The test's working directory is the runfiles tree, which holds the
# task, the arena binary and the plugins' harness files.
set -euo pipefail
task_id="$1"
device="${2:-cpu}"
exec tools/arena/arena --root . tasks --validate --device "$device" --tasks "$task_id"
