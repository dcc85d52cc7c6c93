#!/usr/bin/env bash
# Smoke of the launcher builder: honest controls and the new candidate.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
f=""
for c in ${CANDIDATES:-honest_fast toolchain_environment compiler_by_partial}; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-240} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
grep -h "launcher\|arena_launchers\|Traceback\|Error" "$OUT/adv/adversarial.log" | sort | uniq -c | sort -rn | head -20
cat "$OUT/adv/table.md"
