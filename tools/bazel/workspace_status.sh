#!/usr/bin/env bash
# Bazel's workspace status under --config=stamp (.bazelrc): the commit the
# arena is built from, and whether the tree had uncommitted changes, for
# the arena_version every result records (core/provenance.h).
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit+modified"
fi
echo "STABLE_ARENA_COMMIT $commit"
