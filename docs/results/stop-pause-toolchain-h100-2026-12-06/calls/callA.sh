#!/usr/bin/env bash
# A versus A of four Triton tasks, twice on one card.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/norms/fused_add_rmsnorm,triton2triton/elementwise/gelu,triton2triton/reductions/argmax_rows
tools/gpu/run_family.sh "$tr" "$OUT/aa1" 275 >/dev/null 2>&1
tools/gpu/run_family.sh "$tr" "$OUT/aa2" 275 >/dev/null 2>&1
for r in aa1 aa2; do
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt
  echo "## $r"; head -3 "$OUT/$r.x/log.txt"; grep "arena exit" "$OUT/$r.x/log.txt"; grep -E "^- |^  - " "$OUT/$r.x/table.md"
done
