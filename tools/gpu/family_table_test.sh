#!/usr/bin/env bash
# family_table.py over the committed H200 reports gives the figures that
# docs/results' READMEs quote: the tables are reproducible from the reports.
set -euo pipefail
results=docs/results
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail=0
expect() {  # expect FOLDER TEXT...: each TEXT is in the folder's table
  local folder="$1"
  shift
  gunzip -c "$results/$folder/report.json.gz" >"$tmp/report.json"
  python3 tools/gpu/family_table.py "$tmp/report.json" "$results/$folder/ceilings.json" >"$tmp/table.md"
  for text in "$@"; do
    if ! grep -qF -- "$text" "$tmp/table.md"; then
      echo "FAIL: $folder: no '$text' in the table:" >&2
      tail -8 "$tmp/table.md" >&2
      fail=1
    fi
  done
}
expect rechecks-h200-2026-12-05/triton2triton \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 0" \
  "launches observed in the checks by: cupti 148" \
  "A versus A over 68 timed configurations: 67/68 = 98.5% within 1.00 +- 0.02" \
  "median 24.0 s, whole family 136 s over 6 tasks" \
  "timed rounds' inputs drawn by: calls 12, graph 12, in place 44"
expect rechecks-h200-2026-12-05/hip2hip \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 0" \
  "A versus A over 42 timed configurations: 39/42 = 92.9% within 1.00 +- 0.02" \
  "calls of 10 us or more: 33/33 = 100.0%" \
  "median 42.5 s, whole family 179 s over 4 tasks" \
  "prefetch 21.0 s, probe 0.2 s, quiet 2.4 s, round 9.5 s, setup 0.6 s, verify 91.5 s"
expect rechecks-h200-2026-12-04/triton2triton \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 82 timed configurations: 81/82 = 98.8% within 1.00 +- 0.02" \
  "stages failed with an integrity finding: 0" \
  "median 23.4 s, whole family 152 s over 7 tasks" \
  "timing by phase (the judges' own clocks): fill 22.5 s, probe 2.2 s"
expect rechecks-h200-2026-12-04/launch-observer \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 68" \
  "launches observed in the checks by: cupti 148"
expect rechecks-h200-2026-12-04/torch2hip \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "median 47.2 s, whole family 200 s over 4 tasks" \
  "4 compiles): median 0.22 s, max 0.27 s"
expect torch2hip-pending-h200-2026-12-04/torch2hip \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 1" \
  "min 0.0014, max 44.8829" \
  "median 49.7 s, whole family 1014 s over 20 tasks" \
  "19 compiles): median 0.35 s, max 0.81 s"
expect pending-h200-2026-12-04/triton2triton \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 534 timed configurations: 520/534 = 97.4% within 1.00 +- 0.02" \
  "calls of 10 us or more: 470/475 = 98.9%" \
  "median 21.2 s, whole family 1115 s over 45 tasks" \
  "median 2.4 s, max 7.8 s"
expect pending-h200-2026-12-04/hip2hip \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 360 timed configurations: 338/360 = 93.9% within 1.00 +- 0.02" \
  "calls of 10 us or more: 301/307 = 98.0%" \
  "median 19.7 s, whole family 697 s over 32 tasks" \
  "64 compiles): median 0.32 s, max 0.93 s"
expect pending-h200-2026-12-04/torch2hip \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "min 0.0015, max 5.2393" \
  "median 65.1 s, whole family 453 s over 7 tasks" \
  "7 compiles): median 0.34 s, max 0.54 s"
expect triton-pending-h200-2026-12-03/triton2triton \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 461 timed configurations: 448/461 = 97.2% within 1.00 +- 0.02" \
  "calls under 10 us: 38/46 = 82.6%" \
  "median 21.6 s, whole family 984 s over 39 tasks" \
  "median 2.2 s, max 7.8 s" \
  "memory 4.65 TB/s"
expect triton-pending-h200-2026-12-03/second-machine \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 222 timed configurations: 221/222 = 99.5% within 1.00 +- 0.02" \
  "median 21.9 s, whole family 456 s over 19 tasks"
expect validation-h200-2026-12-03/hip2hip \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 348 timed configurations: 324/348 = 93.1% within 1.00 +- 0.02" \
  "calls under 10 us: 33/51 = 64.7%" \
  "median 17.5 s, whole family 611 s over 31 tasks"
expect validation-h200-2026-12-03/triton2triton \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "A versus A over 132 timed configurations: 129/132 = 97.7% within 1.00 +- 0.02" \
  "median 21.9 s, whole family 246 s over 11 tasks" \
  "median 2.7 s, max 6.1 s"
expect validation-h200-2026-12-03/torch2hip-rtc \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "configurations above a measured ceiling (cost model or ceiling to fix): 6" \
  "hipRTC compile time per subject (NVRTC, then g++ for the host code, 6 compiles): median 0.34 s" \
  "median 85.2 s, whole family 520 s over 6 tasks"
expect triton2triton-h200-2026-11-30 \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 433 timed configurations: 427/433 = 98.6% within 1.00 +- 0.02" \
  "median 12.0 s, whole family 752 s over 40 tasks" \
  "configurations above a measured ceiling (cost model or ceiling to fix): 0" \
  "| A/A | method |"
# The 2026-11-30 HIP run's embedding_bag_sum cost model counted every
# lookup's row (since fixed to count each distinct row once): the table
# names the five configurations it put above the copy bandwidth.
expect hip2hip-h200-2026-11-30 \
  "configurations above a measured ceiling (cost model or ceiling to fix): 5" \
  "hip2hip/embedding/embedding_bag_sum heldout_vocab10007_dim520_bags999_bag_size250: 156% of copy bandwidth"
expect integrity-triton-h200-2026-12-01/rounds30 \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 57 timed configurations: 56/57 = 98.2% within 1.00 +- 0.02" \
  "median 33.6 s, whole family 170 s over 5 tasks"
expect integrity-triton-h200-2026-12-01/rounds16 \
  "A versus A over 159 timed configurations: 143/159 = 89.9% within 1.00 +- 0.02" \
  "median 23.4 s, whole family 354 s over 15 tasks"
expect hip2hip-h200-2026-11-30 \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 261 timed configurations: 254/261 = 97.3% within 1.00 +- 0.02" \
  "calls under 10 us: 41/42 = 97.6%" \
  "median 22.0 s, whole family 504 s over 24 tasks" \
  "(kernel.hip to a shared library, 18 compiles): median 1.13 s"
expect torch2hip-h200-2026-11-30 \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "speedup (baseline / candidate) over 250 timed configurations" \
  "whole family 1372 s over 25 tasks" \
  "| eager us | torch.compile us | candidate us |"
expect autotune-h200-2026-11-30 \
  "speedup (baseline / candidate) over 42 timed configurations" \
  "| speedup | method |"
expect autotune-hip2hip-h200-2026-11-30 \
  "configurations checked wrong (baseline or candidate): 0" \
  "speedup (baseline / candidate) over 261 timed configurations" \
  "median 21.4 s, whole family 498 s over 24 tasks" \
  "the HIP worker's checks by phase: compare 152 s, prepare 73 s, run 2 s, transfer 110 s" \
  "(same source, headers and compilers; no nvcc run): 48" \
  "by kind: heldout 13 of 136, tuning 4 of 125" \
  "nvcc or the build cache, plus the CPU reference once): median 0.17 s"
expect autotune-triton2triton-h200-2026-11-30 \
  "configurations checked wrong (baseline or candidate): 0" \
  "speedup (baseline / candidate) over 433 timed configurations" \
  "median 11.4 s, whole family 724 s over 40 tasks" \
  "by kind: heldout 40 of 215, tuning 5 of 218; more than 2% faster: heldout 68 of 215, tuning 101 of 218"
expect quiet-family-h200-2026-12-03/hip2hip \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 259 timed configurations: 243/259 = 93.8% within 1.00 +- 0.02" \
  "calls under 10 us: 25/38 = 65.8%" \
  "median 17.3 s, whole family 456 s over 23 tasks"
expect quiet-family-h200-2026-12-03/triton2triton \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 80 timed configurations: 77/80 = 96.2% within 1.00 +- 0.02" \
  "median 27.3 s, whole family 230 s over 7 tasks"
expect hip2hip-worker-h200-2026-11-30/noop-before \
  "median 23.0 s, whole family 505 s over 23 tasks" \
  "the HIP worker's checks by phase: compare 34 s, prepare 70 s, run 2 s, transfer 223 s"
expect hip2hip-worker-h200-2026-11-30/noop-after \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "A versus A over 261 timed configurations: 255/261 = 97.7% within 1.00 +- 0.02" \
  "median 13.7 s, whole family 369 s over 24 tasks" \
  "the HIP worker's checks by phase: compare 33 s, prepare 111 s, run 2 s, transfer 54 s"
expect hip2hip-worker-h200-2026-11-30/autotune-session \
  "configurations checked wrong (baseline or candidate): 0" \
  "speedup (baseline / candidate) over 52 timed configurations"
expect hip2hip-worker-h200-2026-11-30/torch2hip-check \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "whole family 121 s over 4 tasks"
expect hip-trials-h200-2026-12-07/w \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 2" \
  "A versus A over 358 timed configurations: 316/358 = 88.3% within 1.00 +- 0.02" \
  "median 22.7 s, whole family 784 s over 32 tasks" \
  "checks 218 s (28%), timing 502 s (64%)" \
  "prepare 159 s, run 3 s, transfer 40 s" \
  "median 0.21 s, max 0.78 s"
expect prestart-2026-12-07/p0 \
  "stages failed with an integrity finding: 0" \
  "A versus A over 68 timed configurations: 56/68 = 82.4% within 1.00 +- 0.02" \
  "median 19.2 s, whole family 116 s over 6 tasks" \
  "runners stopped around rounds: 4768" \
  "workers started and round trips 22 s"
expect prestart-2026-12-07/p1 \
  "stages failed with an integrity finding: 0" \
  "A versus A over 68 timed configurations: 52/68 = 76.5% within 1.00 +- 0.02" \
  "median 16.1 s, whole family 102 s over 6 tasks" \
  "runners stopped around rounds: 4822" \
  "workers started and round trips 6 s"
expect hip-pieces-family-2026-12-07/fam \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 0" \
  "A versus A over 360 timed configurations: 305/360 = 84.7% within 1.00 +- 0.02" \
  "calls of 10 us or more: 286/308 = 92.9%" \
  "median 20.1 s, whole family 691 s over 32 tasks" \
  "runners stopped around rounds: 51176"
expect round-parts-h100-2026-12-07/free \
  "stages failed with an integrity finding: 0" \
  "A versus A over 24 timed configurations: 24/24 = 100.0% within 1.00 +- 0.02"
expect round-parts-h100-2026-12-07/pinned \
  "A versus A over 24 timed configurations: 23/24 = 95.8% within 1.00 +- 0.02"
expect hip-placement-h100-2026-12-07/p16 \
  "A versus A over 67 timed configurations: 58/67 = 86.6% within 1.00 +- 0.02" \
  "calls of 10 us or more: 54/59 = 91.5%" \
  "median 26.5 s, whole family 158 s over 6 tasks"
expect hip-placement-h100-2026-12-07/p2 \
  "A versus A over 67 timed configurations: 56/67 = 83.6% within 1.00 +- 0.02" \
  "calls of 10 us or more: 54/59 = 91.5%" \
  "median 29.3 s, whole family 169 s over 6 tasks"
expect polled-rounds-h100-2026-12-07/s \
  "stages failed with an integrity finding: 0" \
  "A versus A over 44 timed configurations: 35/44 = 79.5% within 1.00 +- 0.02" \
  "calls of 10 us or more: 31/36 = 86.1%" \
  "median 18.4 s, whole family 78 s over 4 tasks" \
  "runners stopped around rounds: 2962" \
  "a round's parts, baseline less candidate (us; median over configurations / least / most): to split +5.6"
expect turns-h100-2026-12-07/a \
  "stages failed with an integrity finding: 0" \
  "A versus A over 67 timed configurations: 58/67 = 86.6% within 1.00 +- 0.02" \
  "calls of 10 us or more: 55/59 = 93.2%" \
  "median 22.0 s, whole family 130 s over 6 tasks"
expect turns-h100-2026-12-07/b \
  "A versus A over 67 timed configurations: 59/67 = 88.1% within 1.00 +- 0.02" \
  "calls of 10 us or more: 58/59 = 98.3%" \
  "median 22.8 s, whole family 135 s over 6 tasks"
expect turns-h100-2026-12-07/t \
  "A versus A over 44 timed configurations: 39/44 = 88.6% within 1.00 +- 0.02" \
  "calls of 10 us or more: 36/36 = 100.0%" \
  "median 19.8 s, whole family 85 s over 4 tasks"
expect late-windows-h100-2026-12-07/v \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 0" \
  "median 82.3 s, whole family 393 s over 5 tasks"
expect reference-phases-h100-2026-12-08/w \
  "configurations checked wrong (baseline or noop candidate): 0" \
  "stages failed with an integrity finding: 0" \
  "median 53.7 s, whole family 337 s over 6 tasks"
# aa_compare.py over call Q's two runs gives the counts its README quotes.
aa="$(python3 tools/gpu/aa_compare.py p16=$results/hip-placement-h100-2026-12-07/p16/report.json.gz \
  p2=$results/hip-placement-h100-2026-12-07/p2/report.json.gz)"
for text in "p16: 54/59 configurations of 10 us or more" "p2: 54/59 configurations of 10 us or more" \
  "| hip2hip/topk/topk_rows | tuning_rows65536_cols256_k16 | **1.046** | **0.960** |"; do
  if ! grep -qF -- "$text" <<<"$aa"; then
    echo "FAIL: aa_compare: no '$text'" >&2
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "family_table: every quoted figure reproduced"
exit "$fail"
