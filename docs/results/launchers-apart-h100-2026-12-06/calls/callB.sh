#!/usr/bin/env bash
# A versus A (noop) on four Triton tasks with the launchers built apart:
# every configuration checked and timed, per-task wall time.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/norms/fused_add_rmsnorm,triton2triton/elementwise/gelu,triton2triton/reductions/argmax_rows
tools/gpu/run_family.sh "$tr" "$OUT/aa1" ${LIMIT:-290} >/dev/null 2>&1
for r in aa1; do
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $r"; head -2 "$OUT/$r.x/log.txt"; grep "arena exit" "$OUT/$r.x/log.txt"; grep -iE "seconds|wall|^- |^  - " "$OUT/$r.x/table.md" | head -24
done
