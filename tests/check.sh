# Sourced by the shell tests: `check NAME CONDITION...` runs CONDITION and
# prints PASS or FAIL with NAME, counting failures; `finish` prints the count
# and fails the test if any.
failures=0

check() {
  local name="$1"
  shift
  if "$@"; then
    echo "PASS $name"
  else
    echo "FAIL $name"
    failures=$((failures + 1))
  fi
}

finish() {
  echo "$failures failure(s)"
  [ "$failures" -eq 0 ]
}
