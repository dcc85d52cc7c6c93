#!/usr/bin/env bash
# One call, from inside the bundle (branch gpu-all: main's round sizing,
# Triton's launchers built outside the sandbox and kept for the machine,
# chains launched without CUPTI's subscriber): where a kernel's first
# launch spends its time; A versus A on four tasks, twice (the second run
# finds the machine's launchers built); the candidates that touch the
# launchers, the observer's, an honest one.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
timeout 45 python3 tools/gpu/compile_costs.py > "$OUT/compile_costs.txt" 2>&1
echo "compile_costs exit $?"; grep -E "^Triton|first|BLOCK|process wall|import" "$OUT/compile_costs.txt" | cut -c1-110
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
for run in aa1 aa2; do
  rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
  timeout 150 tools/gpu/run_family.sh "$tr" "$OUT/$run" 140 >/dev/null 2>&1
  mkdir -p "$OUT/$run.x" && tar xzf "$OUT/$run.tgz" -C "$OUT/$run.x" ./table.md ./log.txt ./report.json 2>/dev/null
  grep "arena exit" "$OUT/$run.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/$run.x/table.md" | cut -c1-200
  python3 tools/gpu/task_times.py "$OUT/$run.x/report.json" | cut -c1-200
done
ls -R "${ARENA_TRITON_CACHE:-$HOME/.cache/arena/triton}/launchers" 2>/dev/null | head -12
f=""
for c in honest_fast native_code cache_planted compiler_by_partial toolchain_environment hidden_thread; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 150 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -9 "$OUT/adv/table.md" | cut -c1-200
