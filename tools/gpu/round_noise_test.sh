#!/usr/bin/env bash
# round_noise.py over the committed H200 databases gives the rows that
# docs/results/hip-timing-quiet-h200-2026-12-02/README.md quotes.
set -euo pipefail
r=docs/results/hip-timing-quiet-h200-2026-12-02
table="$(python3 tools/gpu/round_noise.py \
  "before, nvcc (hip-judge-cost run)=docs/results/hip-judge-cost-h200-2026-12-02/arena.db.gz" \
  "joined, RTC (rtcq)=$r/rtcq.arena.db.gz" \
  "Triton, 33 tasks (suite-h200-2026-12-02)=docs/results/suite-h200-2026-12-02/arena.db.gz")"
fail=0
for row in \
  "| before, nvcc (hip-judge-cost run) | 261 | 2.82% | 1.041 | 239/261 = 91.6% | 219/222 = 98.6% | 240/261 = 92.0% | 219/222 = 98.6% |" \
  "| joined, RTC (rtcq) | 337 | 0.32% | 1.063 | 276/337 = 81.9% | 249/287 = 86.8% | 305/337 = 90.5% | 276/287 = 96.2% |" \
  "| Triton, 33 tasks (suite-h200-2026-12-02) | 476 | 1.22% | 1.035 | 460/476 = 96.6% | 387/395 = 98.0% | 461/476 = 96.8% | 389/395 = 98.5% |"; do
  if ! grep -qF -- "$row" <<<"$table"; then
    echo "FAIL: no row '$row' in:" >&2
    echo "$table" >&2
    fail=1
  fi
  if ! grep -qF -- "$row" "$r/README.md"; then
    echo "FAIL: the README does not quote '$row'" >&2
    fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "PASS: the rounds' table follows from the databases"
exit "$fail"
