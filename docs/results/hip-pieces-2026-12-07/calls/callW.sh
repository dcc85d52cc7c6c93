#!/usr/bin/env bash
# One call of the HIP family's noop run, from inside the bundle, with lent
# memory in pieces made together (RunnerClient::ReserveTogether): first the
# pieces' own test on the GPU (bin/vmm_test), then the family run.
# `bash callW.sh resume` goes on with the run this machine kept from the
# call before (and stops at once where there is none: a fresh machine).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
if [ "${1:-}" = resume ] && [ ! -f /tmp/arena-gpu-state/arena.db ] && [ ! -f runs/arena.db ]; then
  echo "no run to resume on this machine"
  exit 3
fi
if [ "${1:-}" != resume ]; then
  timeout 60 bin/vmm_test > "$OUT/vmm_test.txt" 2>&1
  echo "vmm_test exit $?"; grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED \]" "$OUT/vmm_test.txt" | head -6
fi
timeout 560 tools/gpu/run_family.sh hip2hip "$OUT/fam" 545 >/dev/null 2>&1
mkdir -p "$OUT/fam.x" && tar xzf "$OUT/fam.tgz" -C "$OUT/fam.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/fam.x/log.txt"
grep -E "^- |wall time per" "$OUT/fam.x/table.md" | cut -c1-220
python3 tools/gpu/task_times.py "$OUT/fam.x/report.json" > "$OUT/fam.task_times.md" 2>&1
grep "^| hip2hip\|^median" "$OUT/fam.task_times.md" | cut -c1-200
