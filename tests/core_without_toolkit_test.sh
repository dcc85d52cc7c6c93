#!/usr/bin/env bash
# Fails when core's closure (tests/BUILD.bazel: core_toolkit_deps) holds any
# target of the CUDA toolkit's repository, and names them.
set -euo pipefail
deps="${1:?usage: core_without_toolkit_test.sh QUERY_OUTPUT}"
[ -f "$deps" ] || { echo "FAIL: $deps is missing"; exit 1; }
if [ -s "$deps" ]; then
  echo "FAIL: core depends on the CUDA toolkit:"
  cat "$deps"
  exit 1
fi
echo "PASS: core's closure holds nothing of the CUDA toolkit"
