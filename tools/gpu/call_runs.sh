#!/usr/bin/env bash
# One call, from inside the bundle: noop runs of the selected tasks, one
# after the other, each cut at its limit; then each run's table lines,
# the median task time, A versus A side by side (tools/gpu/aa_compare.py)
# over the HIP and Triton runs, and per PyTorch-to-HIP task the decoys of
# its rounds timed alone, its late windows and whether its reference worker was started
# ahead. The calls (tools/gpu/pending_calls/, then each results folder's
# calls/) say which runs.
#
#   RUNS="name=selector=limit_s ..." OUT=DIR bash tools/gpu/call_runs.sh
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compared=() reports=()
for spec in $RUNS; do
  IFS== read -r run sel lim <<<"$spec"
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
  SECONDS=0
  timeout $((lim + 10)) tools/gpu/run_family.sh "$sel" "$OUT/$run" "$lim" >/dev/null 2>&1
  mkdir -p "$OUT/$run.x" && tar xzf "$OUT/$run.tgz" -C "$OUT/$run.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $run (${SECONDS} s)"; grep "arena exit" "$OUT/$run.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per|runners stopped" "$OUT/$run.x/table.md" | cut -c1-160
  python3 tools/gpu/task_times.py "$OUT/$run.x/report.json" > "$OUT/$run.task_times.md" 2>&1
  grep "^median" "$OUT/$run.task_times.md"
  reports+=("$OUT/$run.x/report.json")
  case $sel in torch2hip*) grep "^| torch2hip" "$OUT/$run.task_times.md" | cut -d'|' -f2,3,8,9 | cut -c1-200 ;;
               *) compared+=("$run=$OUT/$run.x/report.json") ;; esac
done
if [ ${#compared[@]} -gt 0 ]; then
  python3 tools/gpu/aa_compare.py "${compared[@]}" > "$OUT/aa.md" 2>&1
  grep '\*\*' "$OUT/aa.md" | cut -c1-150
  grep "configurations of" "$OUT/aa.md"
fi
python3 - "${reports[@]}" <<'PY'
import json, statistics, sys
for path in sys.argv[1:]:
    try:
        tasks = json.load(open(path))["tasks"]
    except (OSError, ValueError):
        continue
    caps = []
    for t in tasks:
        stages = [((c.get("timing") or {}).get("stage") or {}).get("metrics", {}) for c in t["configs"]]
        caps.append(sum((m.get("phases") or m.get("candidate", {}).get("phases") or {}).get("capture_s", 0)
                        for m in stages))
        rounds = [m.get("candidate", {}).get("alone_rounds") for m in stages]
        rounds = [r for r in rounds if r]
        if rounds:
            print(t["task_id"].split("/")[-1], "decoys:", sum(r.get("decoys", 0) for r in rounds),
                  "new/seen:", sum(r.get("new_inputs", 0) for r in rounds), sum(r.get("seen_inputs", 0) for r in rounds),
                  "started ahead:", (t.get("baseline_compile") or {}).get("metrics", {}).get("reference_started_ahead"),
                  "late windows checked/unusable:", sum((m.get("late_windows") or {}).get("checked", 0) for m in stages),
                  sum(len((m.get("late_windows") or {}).get("unusable", [])) for m in stages),
                  "late s:", round(sum((m.get("phases") or {}).get("late_s", 0) for m in stages), 2))
    print(path.split("/")[-2], "capture s a task (median):", round(statistics.median(caps), 2) if caps else "-")
PY
