#!/usr/bin/env bash
# Builds the arena and gathers what a GPU machine without Bazel needs into
# .bundle/ (ignored by git): the arena binary, the plugins' harness files,
# the tasks, and the GPU scripts. Run the GPU scripts from inside .bundle/.
#
#   tools/gpu/make_bundle.sh && (cd .bundle && tools/gpu/run_triton.sh OUT)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bazel build //tools/arena:arena 2>/dev/null
bundle="$root/.bundle"
rm -rf "$bundle/tools" "$bundle/plugins" "$bundle/tasks"
mkdir -p "$bundle/tools/arena" "$bundle/tools/gpu"
cp -f bazel-bin/tools/arena/arena "$bundle/tools/arena/arena"
cp -f tools/gpu/*.sh tools/gpu/*.py "$bundle/tools/gpu/"
cp -r plugins tasks "$bundle/"
find "$bundle/plugins" "$bundle/tasks" \( -name '__pycache__' -o -name 'BUILD.bazel' -o -name '*.cc' \
  -o -name '*.h' \) -prune -exec rm -rf {} +
du -sh "$bundle" | awk '{print "bundle: " $1}'
