#!/usr/bin/env bash
# Bazel test for a GPU machine (tagged requires-gpu): builds every run-level
# test program and runs them all.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export HOME="$tmp"
"$here/build_gpu_tests.sh" "$tmp/bin" "$@"
"$here/run_gpu_tests.sh" "$tmp/bin"
