#!/usr/bin/env bash
# Builds the arena and gathers what a GPU machine without Bazel needs into
# .bundle/ (ignored by git): the arena binary, the plugins' harness files,
# the tasks, and the GPU scripts. Run the GPU scripts from inside .bundle/.
#
#   tools/gpu/make_bundle.sh && (cd .bundle && tools/gpu/run_family.sh triton2triton OUT)
#
# RUNS_DB=docs/results/FOLDER/arena.db.gz puts a committed results database
# (and the ceilings.json beside it) into .bundle/runs/, so that the GPU
# scripts resume its unfinished run or compare against its runs;
# RUNS_DB=DIR.tgz, what a run_family.sh call brought back, does the same
# with that call's database and ceilings.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bazel build --config=stamp //tools/arena:arena //plugins/common/hip:hip_judge //plugins/common/hip:hip_runner //plugins/common/hip:hip_rtc_build \
  //plugins/common/python:libarena_launches.so //plugins/common/python:libarena_native_guard.so //tests/adversarial:triton_adversarial_test \
  //plugins/common/hip:vmm_test 2>/dev/null
bundle="$root/.bundle"
rm -rf "$bundle/tools" "$bundle/plugins" "$bundle/tasks" "$bundle/agents" "$bundle/tests" "$bundle/bin" "$bundle/leaderboard"
# A stale results database would make the GPU scripts resume an old run.
[ "${KEEP_RUNS:-0}" = 1 ] || rm -rf "$bundle/runs" "$bundle/runs-broken" "$bundle/runs-overfit" "$bundle/runs-smoke"
mkdir -p "$bundle/tools/arena" "$bundle/tools/gpu"
cp -f bazel-bin/tools/arena/arena "$bundle/tools/arena/arena"
cp -rf tools/gpu/. "$bundle/tools/gpu/"
cp -r plugins tasks agents leaderboard "$bundle/"
cp -f bazel-bin/plugins/common/hip/hip_judge bazel-bin/plugins/common/hip/hip_runner bazel-bin/plugins/common/hip/hip_rtc_build "$bundle/plugins/common/hip/"
cp -f bazel-bin/plugins/common/python/libarena_launches.so bazel-bin/plugins/common/python/libarena_native_guard.so \
  "$bundle/plugins/common/python/"
# Candidates run sandboxed: the GPU machine has no bubblewrap package, but
# Debian's binary runs there (the scripts point ARENA_BWRAP at it).
mkdir -p "$bundle/bin" "$bundle/tests/adversarial"
cp -f "$(command -v bwrap)" "$bundle/bin/bwrap"
cp -f bazel-bin/plugins/common/hip/vmm_test "$bundle/bin/vmm_test"  # lent memory's pieces (requires-gpu)
cp -rf tests/adversarial/triton tests/adversarial/hip "$bundle/tests/adversarial/"
cp -f bazel-bin/tests/adversarial/triton_adversarial_test "$bundle/tests/adversarial/"
find "$bundle/plugins" "$bundle/tasks" "$bundle/agents" "$bundle/tools" \( -name '__pycache__' -o -name 'BUILD.bazel' \
  -o -name '*.cc' -o -name 'testdata' -o -name 'openai_chat' \) -prune -exec rm -rf {} +
if [ -n "${RUNS_DB:-}" ]; then
  mkdir -p "$bundle/runs"
  rm -f "$bundle/runs/arena.db-wal" "$bundle/runs/arena.db-shm"
  ceilings="$(dirname "$RUNS_DB")/ceilings.json"
  case "$RUNS_DB" in
    # What a run_family.sh call brought back (its DIR.tgz): its database
    # and ceilings, so that the next call resumes that run even on a fresh
    # machine (one can come back cold right after a call).
    *.tgz)
      tar xzf "$RUNS_DB" -C "$bundle/runs" ./arena.db ./ceilings.json
      ceilings="" ;;
    *.gz) gunzip -c "$RUNS_DB" >"$bundle/runs/arena.db" ;;
    *) cp -f "$RUNS_DB" "$bundle/runs/arena.db" ;;
  esac
  [ -n "$ceilings" ] && [ -f "$ceilings" ] && cp -f "$ceilings" "$bundle/runs/ceilings.json"
fi
# The probes (tools/gpu/probes/*.cu): standalone CUDA programs, built here
# with the static runtime where nvcc is installed.
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
if [ -x "$nvcc" ]; then
  for src in tools/gpu/probes/*.cu; do
    "$nvcc" -O2 -arch=sm_90 -cudart static -o "$bundle/bin/$(basename "$src" .cu)" "$src"
  done
fi
# The PyTorch-to-HIP tasks as the reference worker reads them, for
# tools/gpu/torch_compile_cost.py (the GPU machine reads JSON only).
python3 tools/gpu/torch_compile_cost.py prepare tasks/torch2hip/*/*/ >"$bundle/torch_compile_tasks.json"
du -sh "$bundle" | awk '{print "bundle: " $1}'
