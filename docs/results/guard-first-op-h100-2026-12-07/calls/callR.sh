#!/usr/bin/env bash
# One call, from inside the bundle (main: the library guard's dispatch
# method its own function, the lent views made past the guard, the
# start-up's closure check over the process): A versus A on the four
# Triton tasks of calls O and Q, then two candidates of the guard.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 165 tools/gpu/run_family.sh "$tr" "$OUT/aa" 155 >/dev/null 2>&1
mkdir -p "$OUT/aa.x" && tar xzf "$OUT/aa.tgz" -C "$OUT/aa.x" ./table.md ./log.txt ./report.json 2>/dev/null
echo "## aa"; grep "arena exit" "$OUT/aa.x/log.txt"
grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/aa.x/table.md" | cut -c1-200
python3 tools/gpu/task_times.py "$OUT/aa.x/report.json" > "$OUT/aa.task_times.md" 2>&1
grep -v "^| triton2triton.*| \(baseline\|candidate\) |" "$OUT/aa.task_times.md" | cut -c1-200
f=""
for c in dispatch_behind_dynamo_cache view_replaced_for_bind; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 90 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -4 "$OUT/adv/table.md" | cut -c1-170
