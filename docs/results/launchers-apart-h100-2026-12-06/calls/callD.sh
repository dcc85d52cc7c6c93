#!/usr/bin/env bash
# The launcher builder as hardened (its own files only, read-only folder),
# honest controls and the new candidates; then the placement probe.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
f=""
for c in honest_fast honest_autotune toolchain_environment compiler_by_partial library_by_aoti; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-190} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
timeout 90 python3 tools/gpu/placement_probe.py 3 30 > "$OUT/placement.txt" 2>&1
echo "probe exit $?"
tail -9 "$OUT/placement.txt"
