#!/usr/bin/env bash
# Runs every test program build_gpu_tests.sh put in DIR and sums up. Each
# prints PASS/FAIL lines; a program exits 0 when all its checks passed and 3
# when it found no GPU, which here counts as a failure: these tests are for
# the GPU machine.
#
#   run_gpu_tests.sh DIR
set -uo pipefail

dir="${1:?usage: run_gpu_tests.sh DIR}"
ok=0
bad=0
for exe in "$dir"/*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  name="$(basename "$exe")"
  echo "=== $name"
  "$exe"
  rc=$?
  case "$rc" in
    0) ok=$((ok + 1)) ;;
    3) echo "FAIL $name: no GPU found"; bad=$((bad + 1)) ;;
    *) echo "FAIL $name: exit status $rc"; bad=$((bad + 1)) ;;
  esac
done
if [ $((ok + bad)) -eq 0 ]; then
  echo "FAIL: no test programs in $dir (run build_gpu_tests.sh first)"
  exit 1
fi
echo "programs: $ok passed, $bad failed"
[ "$bad" -eq 0 ]
