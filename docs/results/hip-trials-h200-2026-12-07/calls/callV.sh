#!/usr/bin/env bash
# One call, from inside the bundle (tools/gpu/make_bundle.sh): a HIP
# check's trials drawn by the judge's device generator and the CPU
# references spread by OpenMP, against the host's draws and one-thread
# references. silu_mul (the slowest HIP task) both ways, then five more
# tasks the new way.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
echo "## machine"
echo "cores $(nproc); schedstat $([ -r /proc/self/schedstat ] && echo yes || echo no);" \
  "libgomp $(ldconfig -p 2>/dev/null | grep -c libgomp)"
one() {  # NAME TASKS LIMIT_S [VAR=VALUE...]
  local name=$1 tasks=$2 limit=$3
  shift 3
  rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
  env "$@" timeout $((limit + 15)) tools/gpu/run_family.sh "$tasks" "$OUT/$name" "$limit" >/dev/null 2>&1
  mkdir -p "$OUT/$name.x" && tar xzf "$OUT/$name.tgz" -C "$OUT/$name.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $name: $*"
  grep "arena exit" "$OUT/$name.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|wall time per" "$OUT/$name.x/table.md" | cut -c1-200
  python3 tools/gpu/task_times.py "$OUT/$name.x/report.json" > "$OUT/$name.task_times.md" 2>&1
  grep "^| hip2hip\|^median" "$OUT/$name.task_times.md" | cut -c1-260
}
one host hip2hip/elementwise/silu_mul 150 ARENA_HIP_DEVICE_TRIALS=0 ARENA_HIP_REFERENCE_THREADS=1
one device hip2hip/elementwise/silu_mul 150 ARENA_HIP_DEVICE_TRIALS=1 ARENA_HIP_REFERENCE_THREADS=0
tasks=hip2hip/norms/fused_add_rmsnorm,hip2hip/attention/decode_attention,hip2hip/losses/cross_entropy
tasks=$tasks,hip2hip/softmax/softmax_rows,hip2hip/norms/layernorm
one five "$tasks" 200 ARENA_HIP_DEVICE_TRIALS=1 ARENA_HIP_REFERENCE_THREADS=0
