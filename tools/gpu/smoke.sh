#!/usr/bin/env bash
# A few minutes that show each family works on this GPU machine before the
# long runs: the HIP layer's run-level tests (if built into hiptests/), one
# task of each family with the noop agent, the broken-candidate and the
# overfitted-candidate demos. From inside the bundle:
#
#   tools/gpu/smoke.sh OUT_DIR
#
# Leaves OUT_DIR.tgz and prints a one-line verdict per step.
set -uo pipefail
out="${1:?output folder}"
mkdir -p "$out"
export ARENA_PYTHON="${ARENA_PYTHON:-python3}" PYTHONUNBUFFERED=1
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
here="$(pwd)"
step() {  # step NAME LIMIT_S COMMAND...
  local name="$1" limit="$2"
  shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  printf '%-22s exit %-3s %4ss  %s\n' "$name" "$rc" "$(( $(date +%s) - t0 ))" \
    "$(grep -E '^\[[0-9]+/[0-9]+\]|programs:|^arena exit' "$out/$name.txt" | tail -1 | cut -c1-90)" |
    tee -a "$out/smoke.md"
}
[ -d hiptests ] && step hip_layer 120 bash plugins/common/hip/hip_on_cuda/tests/run_gpu_tests.sh hiptests
step triton 120 tools/arena/arena --root . run --tasks triton2triton/elementwise/gelu --runs-dir "$here/runs-smoke"
step hip2hip 120 tools/arena/arena --root . run --tasks hip2hip/elementwise/silu_mul --runs-dir "$here/runs-smoke"
# torch.compile (a second baseline, minutes per task) is left to the family run.
step torch2hip 240 env ARENA_TORCH_COMPILE=0 tools/arena/arena --root . run --tasks torch2hip/fused/linear_bias_relu --runs-dir "$here/runs-smoke"
step report 30 tools/arena/arena --root . report latest --runs-dir "$here/runs-smoke" --json
cp "$out/report.txt" "$out/torch2hip_report.json" 2>/dev/null
step broken 240 bash tools/gpu/broken_hip.sh "$out/broken" 20
step overfit 240 env ARENA_TORCH_COMPILE=0 bash tools/gpu/overfit_torch2hip.sh "$out/overfit"
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
