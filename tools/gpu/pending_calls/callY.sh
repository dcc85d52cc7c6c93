#!/usr/bin/env bash
# One call, from inside the bundle (callX cut to what 300 s hold): one
# PyTorch-to-HIP task (v: the timing's phases, the candidate's runner held
# while PyTorch is timed, the decoys of rounds timed alone), then one HIP
# task (a: both subjects' graphs captured at once, the Thue-Morse turns).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
h=hip2hip/softmax/softmax_rows
tv=torch2hip/softmax/softmax_lastdim
for run in v a; do
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
  case $run in a) sel=$h lim=80 ;; v) sel=$tv lim=150 ;; esac
  SECONDS=0
  timeout $((lim + 10)) tools/gpu/run_family.sh "$sel" "$OUT/$run" $lim >/dev/null 2>&1
  mkdir -p "$OUT/$run.x" && tar xzf "$OUT/$run.tgz" -C "$OUT/$run.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $run (${SECONDS} s)"; grep "arena exit" "$OUT/$run.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per|runners stopped" "$OUT/$run.x/table.md" | cut -c1-160
  python3 tools/gpu/task_times.py "$OUT/$run.x/report.json" > "$OUT/$run.task_times.md" 2>&1
  grep "^median" "$OUT/$run.task_times.md"
done
grep "^| torch2hip" "$OUT/v.task_times.md" | cut -d'|' -f2,3,8,9 | cut -c1-200
python3 tools/gpu/aa_compare.py a=$OUT/a.x/report.json > "$OUT/aa.md" 2>&1
grep '\*\*' "$OUT/aa.md" | cut -c1-150
grep "configurations of" "$OUT/aa.md"
python3 - "$OUT/a.x/report.json" "$OUT/v.x/report.json" <<'PY'
import json, statistics, sys
for path in sys.argv[1:]:
    try:
        tasks = json.load(open(path))["tasks"]
    except (OSError, ValueError):
        continue
    caps = []
    for t in tasks:
        cap = sum(((c.get("timing") or {}).get("stage") or {}).get("metrics", {}).get("phases", {}).get("capture_s", 0)
                  for c in t["configs"])
        caps.append(cap)
        rounds = [((c.get("timing") or {}).get("stage") or {}).get("metrics", {}).get("candidate", {}).get("alone_rounds")
                  for c in t["configs"]]
        rounds = [r for r in rounds if r]
        if rounds:
            print(t["task_id"].split("/")[-1], "decoys:", sum(r.get("decoys", 0) for r in rounds),
                  "new/seen:", sum(r.get("new_inputs", 0) for r in rounds), sum(r.get("seen_inputs", 0) for r in rounds),
                  "started ahead:", (t.get("baseline_compile") or {}).get("metrics", {}).get("reference_started_ahead"))
    print(path.split("/")[-2], "capture s a task (median):", round(statistics.median(caps), 2) if caps else "-")
PY
