#!/usr/bin/env bash
# A few HIP tasks (A versus A, noop agent) with the judge's and runners'
# logs kept, from inside the bundle (tools/gpu/make_bundle.sh):
#
#   tools/gpu/hip_smoke.sh OUT_DIR TASK...
#
# Prints each task's A-versus-A table (tools/gpu/family_table.py) last.
set -uo pipefail
out="${1:?output folder}"
shift
mkdir -p "$out"
export ARENA_PYTHON="${ARENA_PYTHON:-python3}" ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
here="$(pwd)"
for task in "$@"; do
  name="$(echo "$task" | tr / _)"
  runs="$here/runs-smoke/$name"
  start=$(date +%s)
  tools/arena/arena --root . run --agent noop --tasks "$task" --runs-dir "$runs" \
    --stage-timeout 60 >"$out/$name.run.txt" 2>"$out/$name.progress.txt"
  echo "$task: arena exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/runs.txt"
  tools/arena/arena --root . report latest --runs-dir "$runs" --json >"$out/$name.report.json"
  find "$runs" -name '*.log' -size -2M -exec sh -c 'cp "$1" "$2/$3.$(basename "$(dirname "$1")").$(basename "$1")"' _ {} "$out" "$name" \;
  tail -3 "$out/$name.run.txt"
done
# One archive: a call brings back a few files at most.
tar czf "$out.tgz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
