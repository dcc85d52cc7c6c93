#!/usr/bin/env bash
# One call, from inside the bundle (e71ed33: the Triton judge's freeze
# check, ran_while_stopped): A versus A on the four Triton tasks of call R
# (guard-first-op-h100-2026-12-07), where no honest runner may be named,
# then the honest Triton candidates and two that work between requests.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 175 tools/gpu/run_family.sh "$tr" "$OUT/aa" 165 >/dev/null 2>&1
mkdir -p "$OUT/aa.x" && tar xzf "$OUT/aa.tgz" -C "$OUT/aa.x" ./table.md ./log.txt ./report.json 2>/dev/null
echo "## aa"; grep "arena exit" "$OUT/aa.x/log.txt"
grep -E "integrity|checked wrong|A versus A|wall time per|runners stopped" "$OUT/aa.x/table.md" | cut -c1-200
grep -o "tampering[^\"]*" "$OUT/aa.x/report.json" | head -5
python3 tools/gpu/task_times.py "$OUT/aa.x/report.json" > "$OUT/aa.task_times.md" 2>&1
grep "^| triton2triton.*[0-9] |$\|^median" "$OUT/aa.task_times.md" | grep -v "| baseline |\|| candidate |" | cut -c1-200
f=""
for c in honest_fast honest_autotune work_between_requests own_kernel_between_requests; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 150 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -5 "$OUT/adv/table.md" | cut -c1-200
