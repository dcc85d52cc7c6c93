#!/usr/bin/env bash
# Honest controls and two candidates on the mended runner.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
f=""
for c in honest_fast honest_autotune toolchain_environment compiler_by_partial; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-150} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
