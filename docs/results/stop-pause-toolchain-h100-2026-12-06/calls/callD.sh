#!/usr/bin/env bash
# A versus A: four Triton tasks, two HIP tasks, then two of the Triton
# tasks again on the same card.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/norms/fused_add_rmsnorm,triton2triton/elementwise/gelu,triton2triton/reductions/argmax_rows
tools/gpu/run_family.sh "$tr" "$OUT/aa1" 245 >/dev/null 2>&1
tools/gpu/run_family.sh hip2hip/elementwise/silu_mul,hip2hip/softmax/log_softmax_rows "$OUT/hip" 150 >/dev/null 2>&1
tools/gpu/run_family.sh triton2triton/softmax/softmax_rows,triton2triton/norms/fused_add_rmsnorm "$OUT/aa2" 160 >/dev/null 2>&1
for r in aa1 hip aa2; do
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $r"; head -2 "$OUT/$r.x/log.txt"; grep "arena exit" "$OUT/$r.x/log.txt"; grep -E "^- |^  - " "$OUT/$r.x/table.md" | head -14
done
