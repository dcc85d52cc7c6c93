#!/usr/bin/env bash
# Where nvcc's time goes when the HIP families build a candidate (through
# the HIP-on-CUDA layer, into a shared library), phase by phase (nvcc
# -time), for every hip2hip task's kernel.hip; prints the median of each
# phase over the tasks, as a markdown table. The device passes (cicc,
# ptxas) are what runtime compilation (hipRTC on NVRTC) would replace; the
# rest is the host side's.
#
#   tools/bench/nvcc_phases.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nvcc="${ARENA_NVCC:-/usr/local/cuda/bin/nvcc}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for k in "$root"/tasks/hip2hip/*/*/kernel.hip; do
  "$nvcc" -x cu -std=c++17 -O3 -arch=sm_90 -shared -Xcompiler -fPIC -cudart shared \
    -I"$root/plugins/common/hip/hip_on_cuda/include" -I"$root/plugins/common/hip/include" \
    -time "$out/phases.csv" -o "$out/k.so" "$k" >/dev/null 2>&1
done
echo "nvcc phases per candidate, $(ls "$root"/tasks/hip2hip/*/*/kernel.hip | wc -l) hip2hip kernels, $(date -u +%Y-%m-%d), $(nproc) cores"
echo "($("$nvcc" --version | tail -1))"
echo
python3 - "$out/phases.csv" <<'PY'
import csv, statistics, sys
from collections import defaultdict
per_file = defaultdict(lambda: defaultdict(float))
with open(sys.argv[1]) as f:
    rows = list(csv.reader(f))
for r in rows[1:]:
    if len(r) < 8 or not r[0].strip():
        continue
    phase = r[1].strip()
    try:
        per_file[r[0].strip()][phase] += float(r[-2])
    except ValueError:
        pass
phases = sorted({p for d in per_file.values() for p in d}, key=lambda p: -statistics.median(
    d.get(p, 0.0) for d in per_file.values()))
print("| phase | median ms | side |")
print("|---|---|---|")
device = {"cicc", "ptxas", "fatbinary", "nvlink"}
for p in phases:
    side = "device" if p in device else "host" if p != "nvcc (driver)" else "driver"
    print(f"| {p} | {statistics.median(d.get(p, 0.0) for d in per_file.values()):.0f} | {side} |")
totals = [sum(d.values()) for d in per_file.values()]
dev = [sum(v for k, v in d.items() if k in device) for d in per_file.values()]
print(f"| **total** | {statistics.median(totals):.0f} | device {statistics.median(dev):.0f} |")
PY
