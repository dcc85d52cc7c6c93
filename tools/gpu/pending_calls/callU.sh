#!/usr/bin/env bash
# One call, from inside the bundle: with the lent pieces made in the
# Thue-Morse sequence's turns, call Q's six HIP tasks twice (a, b) and
# call S's four Triton tasks once (t), to tell whether the per-configuration
# A versus A offsets of 10 us or more (drawn anew each run by where each
# subject's memory lies) go. HIP's polled rounds run here first too.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
h=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
for run in a b t; do
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
  sel=$h lim=180
  [ "$run" = t ] && sel=$tr lim=120
  SECONDS=0
  timeout $((lim + 10)) tools/gpu/run_family.sh "$sel" "$OUT/$run" $lim >/dev/null 2>&1
  mkdir -p "$OUT/$run.x" && tar xzf "$OUT/$run.tgz" -C "$OUT/$run.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $run (${SECONDS} s)"; grep "arena exit" "$OUT/$run.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per|runners stopped" "$OUT/$run.x/table.md" | cut -c1-160
done
python3 tools/gpu/aa_compare.py a=$OUT/a.x/report.json b=$OUT/b.x/report.json t=$OUT/t.x/report.json > "$OUT/aa.md" 2>&1
grep '\*\*' "$OUT/aa.md" | cut -c1-150
grep "configurations of" "$OUT/aa.md"
