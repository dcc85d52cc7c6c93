#!/usr/bin/env bash
# One HIP task's CPU reference on 1, 3 and 8 OpenMP threads (used by
# arena_task for the hip2hip family): reference_threads.cc says what must
# hold. The working directory is the runfiles tree.
set -euo pipefail
exec plugins/hip2hip/reference_threads tasks "tasks/$1/task.yaml" plugins/common/hip/include "${TEST_TMPDIR:?}"
