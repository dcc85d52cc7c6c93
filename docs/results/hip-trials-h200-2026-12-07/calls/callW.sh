#!/usr/bin/env bash
# One call of the HIP family's noop run, from inside the bundle, with the
# defaults (a check's trials drawn by the device generator, the CPU
# references on every core): `bash callW.sh` starts it, `bash callW.sh
# resume` goes on with the run this machine kept from the call before (and
# stops at once where there is none: a fresh machine).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
if [ "${1:-}" = resume ] && [ ! -f /tmp/arena-gpu-state/arena.db ] && [ ! -f runs/arena.db ]; then
  echo "no run to resume on this machine"
  exit 3
fi
timeout 575 tools/gpu/run_family.sh hip2hip "$OUT/fam" 560 >/dev/null 2>&1
mkdir -p "$OUT/fam.x" && tar xzf "$OUT/fam.tgz" -C "$OUT/fam.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/fam.x/log.txt"
grep -E "^- |wall time per" "$OUT/fam.x/table.md" | cut -c1-220
python3 tools/gpu/task_times.py "$OUT/fam.x/report.json" > "$OUT/fam.task_times.md" 2>&1
grep "^| hip2hip\|^median" "$OUT/fam.task_times.md" | cut -c1-200
