#!/usr/bin/env bash
# One call, from inside the bundle: four of the six Triton tasks of call P
# (prestart-2026-12-07) with the timing rounds polled (the runner polls for
# the judge's next word within a round, the judge for its runners' while it
# times them): A versus A, each configuration's round parts and both
# subjects' wakes, the wall time a task.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 130 tools/gpu/run_family.sh "$tr" "$OUT/s" 120 >/dev/null 2>&1
mkdir -p "$OUT/s.x" && tar xzf "$OUT/s.tgz" -C "$OUT/s.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/s.x/log.txt"
grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per|runners stopped" "$OUT/s.x/table.md" | cut -c1-200
python3 tools/gpu/task_times.py "$OUT/s.x/report.json" > "$OUT/s.task_times.md" 2>&1
grep "^| triton2triton.*[0-9] |$\|^median" "$OUT/s.task_times.md" | grep -v "| baseline |\|| candidate |" | cut -c1-160
python3 - "$OUT/s.x/report.json" <<'PY'
import collections, json, statistics, sys
per = collections.defaultdict(list)
wakes = {"baseline": [], "candidate": []}
for t in json.load(open(sys.argv[1]))["tasks"]:
    for c in t["configs"]:
        tm = c.get("timing") or {}
        b, cd = tm.get("baseline_us") or [], tm.get("candidate_us") or []
        m = (tm.get("stage") or {}).get("metrics") or {}
        if not b or statistics.median(b) < 20:
            continue
        n = m.get("sets_per_round", 1)
        per[t["task_id"].split("/")[-1]].append(statistics.median([(x - y) * n for x, y in zip(b, cd)]))
        for s in wakes:
            w = ((m.get("before_clock") or {}).get(s) or {}).get("wake_us")
            if w:
                wakes[s].append(w["median"])
print("baseline - candidate, us a round (median over configurations of 20 us or more):",
      {k: round(statistics.median(v), 1) for k, v in per.items()})
print("wakes (us, median): baseline %.0f, candidate %.0f" % tuple(statistics.median(wakes[s]) for s in ("baseline", "candidate")))
PY
