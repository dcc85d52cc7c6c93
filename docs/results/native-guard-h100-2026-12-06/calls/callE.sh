#!/usr/bin/env bash
# Lent memory in 16 MiB pieces allocated in turns for the two subjects
# (ARENA_LEND_PIECE_BYTES), against one allocation a buffer, on one card:
# A versus A (noop) on softmax_rows and gelu, pieces first, then without;
# and an honest candidate through the pieces.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu
for r in pieces whole; do
  if [ $r = pieces ]; then export ARENA_LEND_PIECE_BYTES=16777216; else export ARENA_LEND_PIECE_BYTES=0; fi
  rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
  timeout 110 tools/gpu/run_family.sh "$tr" "$OUT/$r" 100 >/dev/null 2>&1
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $r"; grep "arena exit" "$OUT/$r.x/log.txt"; grep -E "integrity|checked wrong|A versus A|calls|wall time per|timing by phase" "$OUT/$r.x/table.md" | cut -c1-220
  grep "rows8192_cols8192\|n3000017" "$OUT/$r.x/table.md" | cut -c1-200
done
export ARENA_LEND_PIECE_BYTES=16777216
GTEST_FILTER="Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/honest_fast" timeout 60 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -4 "$OUT/adv/table.md"
