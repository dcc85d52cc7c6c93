#!/usr/bin/env bash
# One call of the HIP family's noop run, from inside the bundle, with lent
# memory in pieces made together (RunnerClient::ReserveTogether, mended in
# 70ca53d) and the judge's quick quit (b2f9717): first the pieces' own test
# on the GPU (bin/vmm_test), then the family run. `bash callF.sh resume`
# goes on with the run this machine kept from the call before (and stops at
# once where there is none: a fresh machine).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "${1:-}" = resume ] && [ ! -f /tmp/arena-gpu-state/arena.db ] && [ ! -f runs/arena.db ]; then
  echo "no run to resume on this machine"
  exit 3
fi
if [ "${1:-}" != resume ]; then
  timeout 60 bin/vmm_test > "$OUT/vmm_test.txt" 2>&1
  echo "vmm_test exit $?"
fi
limit=${LIMIT_S:-545}
timeout $((limit + 15)) tools/gpu/run_family.sh hip2hip "$OUT/fam" "$limit" >/dev/null 2>&1
mkdir -p "$OUT/fam.x" && tar xzf "$OUT/fam.tgz" -C "$OUT/fam.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/fam.x/log.txt"
grep -E "integrity|checked wrong|A versus A|wall time per|runners stopped" "$OUT/fam.x/table.md" | cut -c1-220
python3 tools/gpu/task_times.py "$OUT/fam.x/report.json" > "$OUT/fam.task_times.md" 2>&1
grep "^median" "$OUT/fam.task_times.md" | cut -c1-200
python3 - "$OUT/fam.x/report.json" <<'PY'
import json, statistics, sys
tasks = json.load(open(sys.argv[1]))["tasks"]
close = [(t.get("phases") or {}).get("close_s") for t in tasks]
close = [c for c in close if c is not None]
if close:
    print("tasks %d, close_s median %.2f max %.2f" % (len(tasks), statistics.median(close), max(close)))
PY
