#!/usr/bin/env bash
# CI test for machines without a GPU: builds the programs whose first checks
# need no device (types: errors, half, bfloat16; module_rtc: hipRTC through
# NVRTC) with build_gpu_tests.sh, runs them, and requires that those checks
# pass and that the programs then report "no GPU" cleanly (exit status 3)
# rather than crash. On a machine with a GPU they must pass outright.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export HOME="$tmp"
if ! "$here/build_gpu_tests.sh" "$tmp/bin" "$@"; then
  echo "FAIL build_gpu_tests.sh"
  exit 1
fi
ok=0
bad=0
for exe in "$tmp"/bin/*; do
  name="$(basename "$exe")"
  out="$("$exe" 2>&1)"
  rc=$?
  printf '%s\n' "$out" | sed "s/^/  $name | /"
  passes="$(grep -c '^PASS ' <<<"$out")"
  fails="$(grep -c '^FAIL ' <<<"$out")"
  if [ "$rc" -eq 3 ] && grep -q '^no GPU: ' <<<"$out" && [ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]; then
    echo "PASS $name: $passes host-side checks passed, then 'no GPU' reported (exit 3)"
    ok=$((ok + 1))
  elif [ "$rc" -eq 0 ] && [ "$fails" -eq 0 ]; then
    echo "PASS $name: a GPU is present and every check passed"
    ok=$((ok + 1))
  else
    echo "FAIL $name: exit status $rc, $fails failed check(s)"
    bad=$((bad + 1))
  fi
done
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ] && [ "$ok" -gt 0 ]
