#!/usr/bin/env bash
# HIP candidates (the stop, the pauses, the entropy) and Triton candidates
# (toolchain environment, Triton's files and knobs, hooks), with honest
# controls in each.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
timeout 230 tools/gpu/adversarial_hip.sh "$OUT/adv_hip" honest never_stopped pause_forged entropy_refused >/dev/null 2>&1
echo "adversarial_hip exit $?"
tar xzf "$OUT/adv_hip.tgz" -C "$OUT" ./adversarial_hip.md 2>/dev/null; cat "$OUT/adversarial_hip.md"
f=""
for c in honest_fast honest_autotune toolchain_environment cache_planted knob_redirected hooks_by_caller descriptor_link; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-320} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
