#!/usr/bin/env bash
# The harness's own costs on this machine's host (Google Benchmark, -c opt):
# the core per evaluation (reading a task, staging, provenance hashes, a
# whole evaluation with a family that does nothing), the results database,
# a HIP check's host work (drawing, widening, comparing, fingerprinting,
# poisoning), the judge-runner channel, stopping a runner and checking the
# stop (HIP's judge and Triton's), and the signing of a launch observer's
# report. Prints one markdown document.
#
#   tools/bench/harness_costs.sh > harness_costs.md
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
targets=(
  "//core:pipeline_benchmark|The core per evaluation"
  "//core:results_store_benchmark|The results database"
  "//plugins/common/hip:tensors_benchmark|A HIP check's host work (16 Mi elements, all cores)"
  "//plugins/common/hip:channel_benchmark|The judge-runner channel"
  "//plugins/common/hip:freeze_benchmark|Stopping a HIP runner and checking the stop"
  "//plugins/common/python:signed_report_benchmark|Signing a Triton launch observer's report"
)
bazel build -c opt "${targets[@]%%|*}" >&2
echo "# Harness costs on the host ($(date -u +%Y-%m-%d))"
echo
echo "$(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo);"
echo "\`tools/bench/harness_costs.sh\` (Google Benchmark, \`-c opt\`). Host figures"
echo "only: on a GPU machine the device's part comes on top."
for t in "${targets[@]}"; do
  label="${t%%|*}"
  echo
  echo "## ${t#*|} (\`bazel run -c opt $label\`)"
  echo
  echo '```'
  bazel run -c opt "$label" -- --benchmark_min_time=0.5 2>/dev/null | sed -n '/^----/,$p'
  echo '```'
done
echo
echo "## Stopping a Triton runner and checking the stop (\`python3 plugins/common/python/freeze_benchmark.py\`)"
echo
python3 plugins/common/python/freeze_benchmark.py
