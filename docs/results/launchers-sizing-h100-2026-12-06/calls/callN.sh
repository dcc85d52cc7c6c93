#!/usr/bin/env bash
# From inside the bundle, branch launchers-outside with a builder that
# imports no torch: conv1d's A versus A twice (the second run finds the
# machine's launchers built), for its compile stages' times.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
for run in n1 n2; do
  rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
  timeout 85 tools/gpu/run_family.sh triton2triton/conv/conv1d "$OUT/$run" 80 >/dev/null 2>&1
  mkdir -p "$OUT/$run.x" && tar xzf "$OUT/$run.tgz" -C "$OUT/$run.x" ./table.md ./log.txt ./report.json 2>/dev/null
  grep "arena exit" "$OUT/$run.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|wall time per" "$OUT/$run.x/table.md" | cut -c1-160
  python3 tools/gpu/task_times.py "$OUT/$run.x/report.json" | cut -c1-200
  python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['tasks'][0]; print({s: round(t[s]['metrics']['seconds_per_config'].get('small', 0), 2) for s in ('baseline_compile', 'candidate_compile')}, t['phases'])" "$OUT/$run.x/report.json"
done
ls -R "$HOME/.cache/arena/triton/launchers" 2>/dev/null | head -6
