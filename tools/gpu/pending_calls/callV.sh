#!/usr/bin/env bash
# One call, from inside the bundle: six PyTorch-to-HIP tasks (torch.compile
# timed too), for the timing's phases (prepare, eager, candidate,
# torch.compile), the reference worker started ahead of each evaluation
# and the decoys in the candidate's rounds timed alone (PickDecoy), on a
# GPU for the first time.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t=torch2hip/losses/mse_loss,torch2hip/norms/layernorm_fp16,torch2hip/reductions/prod_dim1,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32
rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
SECONDS=0
timeout 430 tools/gpu/run_family.sh "$t" "$OUT/v" 420 >/dev/null 2>&1
mkdir -p "$OUT/v.x" && tar xzf "$OUT/v.tgz" -C "$OUT/v.x" ./table.md ./log.txt ./report.json 2>/dev/null
echo "## v (${SECONDS} s)"; grep "arena exit" "$OUT/v.x/log.txt"
grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per|runners stopped" "$OUT/v.x/table.md" | cut -c1-160
python3 tools/gpu/task_times.py "$OUT/v.x/report.json" > "$OUT/v.task_times.md" 2>&1
grep "^| torch2hip\|^median" "$OUT/v.task_times.md" | cut -c1-240
python3 - "$OUT/v.x/report.json" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["tasks"]:
    m = (t.get("baseline_compile") or {}).get("metrics") or {}
    rounds = [((c.get("timing") or {}).get("stage") or {}).get("metrics", {}).get("candidate", {}).get("alone_rounds") or {}
              for c in t["configs"]]
    print(t["task_id"].split("/")[-1], "reference_started_ahead:", m.get("reference_started_ahead"),
          "decoys (last request of each configuration):", sum(r.get("decoys", 0) for r in rounds),
          "new/seen:", sum(r.get("new_inputs", 0) for r in rounds), sum(r.get("seen_inputs", 0) for r in rounds))
PY
