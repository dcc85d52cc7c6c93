#!/usr/bin/env bash
# One task family on a GPU machine, from inside the bundle
# (tools/gpu/make_bundle.sh): device, ceilings, a run of AGENT (default noop:
# each baseline checked on every configuration and timed against itself)
# over the family's tasks, and the tables. Resumes a run of the same agent
# and selector left unfinished by an earlier call when runs/arena.db* is
# carried along, or was kept by an earlier call on the same machine.
#
#   [GPUS=0,1] [RUN_ARGS=...] tools/gpu/run_family.sh SELECTOR OUT_DIR [TIME_LIMIT_S] [AGENT]
#
# GPUS picks the GPUs (default all), so that two families can run side by
# side from two copies of the bundle.
set -uo pipefail
family="${1:?family, e.g. triton2triton}"
out="${2:?output folder}"
limit="${3:-480}"
agent="${4:-noop}"
mkdir -p "$out" runs
# Between two calls on the same warm machine the bundle is sent again, and
# its runs/ with it: the results database also lives in the machine's /tmp
# ($ARENA_GPU_STATE), and the newer of the two is resumed.
state="${ARENA_GPU_STATE:-/tmp/arena-gpu-state${GPUS:+-$GPUS}}"
if [ -f "$state/arena.db" ] && { [ ! -f runs/arena.db ] || [ "$state/arena.db" -nt runs/arena.db ]; }; then
  cp -f "$state/arena.db" runs/arena.db && rm -f runs/arena.db-wal runs/arena.db-shm
  [ -f "$state/ceilings.json" ] && cp -f "$state/ceilings.json" runs/
  echo "results database: the one this machine kept in $state"
fi
export ARENA_PYTHON="${ARENA_PYTHON:-python3}"
export PYTHONUNBUFFERED=1
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
date -u +"date: %Y-%m-%dT%H:%M:%SZ" | tee "$out/log.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$out/log.txt"
tools/arena/arena --root . devices | tee -a "$out/log.txt"
# On the first of the chosen GPUs: two jobs side by side measure their own.
ceil_env=(env)
[ -n "${GPUS:-}" ] && ceil_env+=(CUDA_VISIBLE_DEVICES="${GPUS%%,*}")
[ -f runs/ceilings.json ] || "${ceil_env[@]}" python3 tools/gpu/ceilings.py runs/ceilings.json |
  tee -a "$out/log.txt"
# An unfinished run of the same agent over the same selector is resumed.
run_id=$(python3 - "$agent" "$family" <<'PY' 2>/dev/null
import os, sqlite3, sys
if os.path.exists("runs/arena.db"):
    row = sqlite3.connect("runs/arena.db").execute(
        "SELECT run_id FROM runs WHERE status='running' AND agent=? AND selector=? "
        "ORDER BY created_at DESC LIMIT 1", (sys.argv[1], sys.argv[2])).fetchone()
    print(row[0] if row else "")
PY
)
if [ -n "$run_id" ]; then
  args=(run --resume "$run_id")
else
  args=(run --agent "$agent" --tasks "$family")
fi
# RUN_ARGS: more options, e.g. "--agent-budget 60". A resumed run keeps the
# options it was started with; these count only for a run stored without.
[ -n "${RUN_ARGS:-}" ] && read -r -a extra <<<"$RUN_ARGS" && args+=("${extra[@]}")
[ -n "${GPUS:-}" ] && args+=(--gpus "$GPUS")
start=$(date +%s)
timeout "$limit" tools/arena/arena --root . "${args[@]}" >"$out/run.txt" 2>"$out/progress.txt"
echo "arena exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/log.txt"
tail -3 "$out/progress.txt"
python3 -c "import sqlite3; sqlite3.connect('runs/arena.db').execute('PRAGMA wal_checkpoint(TRUNCATE)')"
cp runs/arena.db* runs/ceilings.json "$out/" 2>/dev/null
mkdir -p "$state" && cp -f runs/arena.db runs/ceilings.json "$state/" 2>/dev/null
tools/arena/arena --root . report latest --json >"$out/report.json"
python3 tools/gpu/family_table.py "$out/report.json" runs/ceilings.json >"$out/table.md"
tail -8 "$out/table.md"
# What comes back from a GPU machine is a few files: the folder goes as one
# archive beside it, written as soon as this script is done.
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
