#!/usr/bin/env bash
# The held-out protocol against an overfitted candidate: a tiled GEMM for
# torch2hip/fused/linear_bias_relu that assumes M, N, K multiples of 16 (true
# of every tuning configuration, false of the held-out ones), submitted by
# the replay agent and evaluated like any other. Expected: correct and
# faster on tuning, wrong on held-out: the "regressed" quadrant. From inside
# the bundle (tools/gpu/make_bundle.sh):
#
#   tools/gpu/overfit_torch2hip.sh OUT_DIR
set -uo pipefail
# Candidates are built and run sandboxed: the bundle carries bubblewrap.
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
out="${1:?output folder}"
mkdir -p "$out"
here="$(pwd)"
cfg="$(mktemp)"
echo "submissions: $here/tools/gpu/overfit_torch2hip" >"$cfg"
tools/arena/arena --root . run --agent replay --agent-config "$cfg" \
  --tasks torch2hip/fused/linear_bias_relu --runs-dir "$here/runs-overfit" ${GPUS:+--gpus "$GPUS"} \
  >"$out/overfit_run.txt" 2>"$out/overfit_progress.txt"
echo "arena exit $?" >"$out/overfit.md"
cat "$out/overfit_run.txt" >>"$out/overfit.md"
tools/arena/arena --root . report latest --runs-dir "$here/runs-overfit" --json >"$out/overfit_report.json"
rm -f "$cfg"
cat "$out/overfit.md"
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
