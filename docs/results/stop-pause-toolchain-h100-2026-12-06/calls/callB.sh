#!/usr/bin/env bash
# Triton candidates on the GPU: the hooks and the toolchain's environment,
# with honest controls.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
f=""
for c in hooks_by_caller hook_list_disguised toolchain_environment_data toolchain_path honest_fast honest_autotune; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-500} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
