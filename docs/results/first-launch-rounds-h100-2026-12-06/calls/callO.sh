#!/usr/bin/env bash
# One call, from inside the bundle (main with rounds in blocks until the
# median ratio settles, the runner's costs reported, its start-up's objects
# frozen out of the collector's walks): A versus A on four tasks with
# where each subject's first launch goes; the candidates that touch the
# rounds, the witnesses, the collector and the launchers, honest ones;
# where a Triton kernel's first launch goes outside any sandbox.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 215 tools/gpu/run_family.sh "$tr" "$OUT/aa" 205 >/dev/null 2>&1
mkdir -p "$OUT/aa.x" && tar xzf "$OUT/aa.tgz" -C "$OUT/aa.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/aa.x/log.txt"
grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/aa.x/table.md" | cut -c1-200
python3 tools/gpu/task_times.py "$OUT/aa.x/report.json" > "$OUT/aa.task_times.md" 2>&1
cut -c1-330 "$OUT/aa.task_times.md"
f=""
for c in honest_fast honest_autotune honest_thread native_code cache_planted compiler_by_partial \
         toolchain_environment ahead_of_its_call deferred_to_last_call skip_some_sets sloppy_when_timed \
         call_counting capture_detect gc_callback gc_switched_on thread_from_finalizer; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 250 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -20 "$OUT/adv/table.md" | cut -c1-170
timeout 60 python3 tools/gpu/compile_costs.py > "$OUT/compile_costs.txt" 2>&1
echo "compile_costs exit $?"; grep -E "^Triton|first|process wall|import" "$OUT/compile_costs.txt" | cut -c1-110
