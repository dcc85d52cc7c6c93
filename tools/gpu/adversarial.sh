#!/usr/bin/env bash
# The adversarial Triton candidates (tests/adversarial/triton/) on this GPU
# machine, every configuration of the gelu task checked and timed, from
# inside the bundle (tools/gpu/make_bundle.sh):
#
#   tools/gpu/adversarial.sh OUT_DIR
#
# Writes OUT_DIR/adversarial.log (the test's output) and prints, last, a
# table: each candidate's class file, what it must get, what it got, the
# range of its per-configuration speedups and the reason.
set -uo pipefail
out="${1:?output folder}"
mkdir -p "$out"
export ARENA_PYTHON="${ARENA_PYTHON:-python3}" PYTHONUNBUFFERED=1
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
date -u +"date: %Y-%m-%dT%H:%M:%SZ" | tee "$out/adversarial.log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$out/adversarial.log"
tests/adversarial/triton_adversarial_test ${GTEST_FILTER:+--gtest_filter=$GTEST_FILTER} \
  >>"$out/adversarial.log" 2>&1
rc=$?
{
  echo "| candidate | must get | got | speedups | reason |"
  echo "|---|---|---|---|---|"
  grep '^ADVERSARIAL | ' "$out/adversarial.log" | sed 's/^ADVERSARIAL //; s/$/ |/'
  grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/adversarial.log"
  echo "test exit $rc"
} | tee "$out/table.md"
