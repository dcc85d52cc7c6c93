#!/usr/bin/env bash
# One call, from inside the bundle (main: rounds in blocks in both judges,
# the runner's lent views made past its library guard): A versus A on the
# four Triton tasks of call O and two HIP tasks, then the candidates that
# call O had no time for (rounds, the lent views' guard).
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
hip=hip2hip/elementwise/silu_mul,hip2hip/softmax/log_softmax_rows
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 165 tools/gpu/run_family.sh "$tr" "$OUT/aa" 155 >/dev/null 2>&1
timeout 100 tools/gpu/run_family.sh "$hip" "$OUT/hip" 90 >/dev/null 2>&1
for r in aa hip; do
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $r"; grep "arena exit" "$OUT/$r.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/$r.x/table.md" | cut -c1-200
  python3 tools/gpu/task_times.py "$OUT/$r.x/report.json" > "$OUT/$r.task_times.md" 2>&1
  grep -v "^| triton2triton.*| \(baseline\|candidate\) |" "$OUT/$r.task_times.md" | cut -c1-200
done
f=""
for c in honest_fast view_replaced_for_bind dispatch_behind_dynamo_cache; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 125 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -9 "$OUT/adv/table.md" | cut -c1-170
