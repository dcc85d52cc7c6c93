#!/usr/bin/env bash
# The same two Triton tasks (noop, A versus A) on one card with the runner
# before the launchers were built apart (ec40014) and after, twice each,
# alternating: the runner's effect on A versus A and on wall time.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu
for r in before1 after1 after2 before2; do
  cp -f arena_runner.${r%[12]}.py plugins/common/python/arena_runner.py
  rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
  tools/gpu/run_family.sh "$tr" "$OUT/$r" ${LIMIT:-110} >/dev/null 2>&1
  mkdir -p "$OUT/$r.x" && tar xzf "$OUT/$r.tgz" -C "$OUT/$r.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $r"; grep "arena exit" "$OUT/$r.x/log.txt"; grep -E "integrity|checked wrong|A versus A|wall time per|where the wall" "$OUT/$r.x/table.md" | cut -c1-200
done
