#!/usr/bin/env bash
# nvcc time per HIP candidate, as the HIP families build it (through the
# HIP-on-CUDA layer, into a shared library), for every hip2hip task's
# kernel.hip: with and without -t 0 (host and device passes side by side).
# Best of REPS runs each; prints a markdown table and the medians.
#
#   tools/bench/hip_compile.sh [REPS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reps="${1:-2}"
nvcc="${ARENA_NVCC:-/usr/local/cuda/bin/nvcc}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
flags=(-x cu -std=c++17 -O3 -arch=sm_90 -shared -Xcompiler -fPIC -cudart shared
       -I"$root/plugins/common/hip/hip_on_cuda/include" -I"$root/plugins/common/hip/include")
best() {  # best wall time in seconds of REPS runs of the command
  local b=999
  for _ in $(seq "$reps"); do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    b=$(python3 -c "print(min($b, $e - $s))")
  done
  printf '%.3f' "$b"
}
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; $("$nvcc" --version | tail -2 | head -1)"
echo
echo "| task | nvcc s | nvcc -t 0 s |"
echo "|---|---:|---:|"
plain=() threaded=()
for k in "$root"/tasks/hip2hip/*/*/kernel.hip; do
  task="${k#"$root"/tasks/}"
  task="${task%/kernel.hip}"
  a=$(best "$nvcc" "${flags[@]}" "$k" -o "$out/a.so")
  b=$(best "$nvcc" "${flags[@]}" -t 0 "$k" -o "$out/b.so")
  plain+=("$a") threaded+=("$b")
  echo "| $task | $a | $b |"
done
python3 - "${plain[*]}" "${threaded[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
print(f"\nmedian over {len(a)} tasks: nvcc {statistics.median(a):.3f} s, "
      f"nvcc -t 0 {statistics.median(b):.3f} s")
PY
