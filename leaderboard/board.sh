#!/usr/bin/env bash
# Renders the leaderboard from the committed result databases (used by
# //leaderboard:board): merged into one, one row per agent, only results of
# the task files as they are now (the others are named on stderr).
#
#   leaderboard/board.sh ARENA OUT_TXT OUT_HTML TASKS DB.gz...
set -euo pipefail
arena="$1" txt="$2" html="$3" tasks="$4"
shift 4
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
dbs=()
for db in "$@"; do
  out="$scratch/$(basename "${db%.gz}")"
  gunzip -c "$db" >"$out"
  dbs+=("$out")
done
"$arena" --root . merge "${dbs[@]}" --runs-dir "$scratch/runs" >/dev/null
"$arena" --root . leaderboard --runs-dir "$scratch/runs" --by-agent --current --tasks "$tasks" \
  --html "$html" >"$txt"
