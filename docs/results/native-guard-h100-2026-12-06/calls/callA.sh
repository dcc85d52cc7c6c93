#!/usr/bin/env bash
# The native-code guard and the own-binaries rule on the GPU: honest
# controls, the new candidate (binary_of_its_own) and neighbours; then the
# lent-memory placement probe (two runner-like processes).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
f=""
for c in ${CANDIDATES:-honest_fast binary_of_its_own honest_autotune toolchain_environment library_by_aoti compiler_by_partial native_code environment_read}; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-330} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
grep -h "native-code guard\|Traceback\|Error" "$OUT/adv/adversarial.log" | sort | uniq -c | sort -rn | head -12
for l in /tmp/adv_*/work/runner-*.log; do grep -l "native-code guard\|Traceback" "$l"; done 2>/dev/null | head -5 | while read l; do echo "== $l"; tail -5 "$l"; done
cat "$OUT/adv/table.md"
echo "## vmm placement probe"
timeout ${PROBE_LIMIT:-200} python3 tools/gpu/vmm_placement_probe.py 4 30 0 1073741824 > "$OUT/vmm_probe.txt" 2>&1
echo "probe exit $?"; tail -14 "$OUT/vmm_probe.txt"
