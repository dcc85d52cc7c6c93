#!/usr/bin/env bash
# The PyTorch-to-HIP verified trials' files, whole or at the places the
# judge reads: the reference worker prepares a configuration's 4 trials
# (plugins/torch2hip/harness/reference_worker.py, on this machine's CPU)
# with its float64 references written whole, then at 16 phases
# ("phases"), in turns, twice each; then reads every file back as the
# judge does (one read of each whole file). Prints the seconds and bytes
# of each, median over the passes.
#
#   tools/bench/reference_files.sh [TASK_DIR [ROWS COLS]]
#   (default: tasks/torch2hip/activations/gelu_tanh, 4096 x 8192)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
task="${1:-$root/tasks/torch2hip/activations/gelu_tanh}" rows="${2:-4096}" cols="${3:-8192}"
python="${ARENA_PYTHON:-python3}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
PYTHONPATH="$root/plugins/torch2hip/harness:$root/plugins/common/python" "$python" - "$task" "$rows" "$cols" "$scratch" <<'PY'
import os, statistics, sys, time
import numpy, yaml
import reference_worker

task_dir, rows, cols, scratch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
spec = yaml.safe_load(open(os.path.join(task_dir, "task.yaml")))
task = {"inputs": spec["interface"]["inputs"], "outputs": spec["interface"]["outputs"],
        "tolerances": spec.get("tolerances") or {}, "timing": {"repetitions": 5},
        "family_section": spec.get("torch2hip") or {}}
worker = reference_worker.Worker()
worker.init({"task": task, "reference": os.path.join(task_dir, "reference.py"), "device": "cpu",
             "data_dir": os.path.join(scratch, "data")})
config = {"name": f"rows{rows}_cols{cols}", "params": {"rows": rows, "cols": cols}}
phases = [7919 * k + 13 for k in range(16)]
runs = {"whole": [], "at 16 phases": []}
for _ in range(2):
    for mode in runs:
        start = time.perf_counter()
        reply = worker.prepare({"config": config, "seed": 5, "trials": 4, "reference": True,
                                "check_eager": False, **({"phases": phases} if mode != "whole" else {})})
        prepared = time.perf_counter() - start
        assert reply["status"] == "passed", reply["detail"]
        refs = [r["path"] for entry in reply["data"] for r in entry["reference"]]
        start = time.perf_counter()
        read = sum(numpy.fromfile(p, dtype=numpy.uint8).size for p in refs)
        runs[mode].append((prepared, time.perf_counter() - start, read))
print(f"{os.path.basename(task_dir)} {rows} x {cols}, 4 trials, median of {len(runs['whole'])} passes each:")
print("| references | prepare s | read back s | reference bytes |")
print("|---|---:|---:|---:|")
for mode, r in runs.items():
    print(f"| {mode} | {statistics.median(x[0] for x in r):.2f} | {statistics.median(x[1] for x in r):.3f} | "
          f"{r[0][2]:,} |")
PY
