#!/usr/bin/env bash
# Re-evaluates one agent's stored submissions (submissions/AGENT/, the
# replay layout) on this machine and compares their verdicts with the
# committed ones (results/*.db.gz): exit 0 if every verdict stands, 1 if one
# changed or could not be compared, 2 on bad input.
#
#   leaderboard/replay.sh AGENT cpu|gpu [SCRATCH]
#
# Run from the project root, a test's runfiles tree, or a GPU bundle.
# cpu: compile and the checks the CPU can run (Triton interpreter), compared
# with what the committed GPU verdicts say of the same; gpu: the full
# evaluation, compared verdict for verdict.
set -euo pipefail
agent="${1:?agent}"
device="${2:?cpu or gpu}"
scratch="${3:-${TEST_TMPDIR:-$(mktemp -d)}}"
here="$PWD"
subs="$here/leaderboard/submissions/$agent"
[ -d "$subs" ] || { echo "leaderboard/replay.sh: no submissions of '$agent' in $subs" >&2; exit 2; }
# The tasks it submitted: submissions/AGENT/<family>/<suite>/<task>/...
tasks=$(cd "$subs" && find . -mindepth 3 -maxdepth 3 -type d | sed 's|^\./||' | sort | paste -sd, -)
[ -n "$tasks" ] || { echo "leaderboard/replay.sh: $subs holds no task folder" >&2; exit 2; }
mkdir -p "$scratch/committed"
committed=()
for db in "$here"/leaderboard/results/*.db.gz; do
  [ -f "$db" ] || continue
  out="$scratch/committed/$(basename "${db%.gz}")"
  gunzip -c "$db" >"$out"
  committed+=(--committed "$out")
done
[ ${#committed[@]} -gt 0 ] || { echo "leaderboard/replay.sh: no committed results (leaderboard/results/*.db.gz)" >&2; exit 2; }
printf 'submissions: %s\n' "$subs" >"$scratch/replay.yaml"
gpus=none
[ "$device" = gpu ] && gpus=all
rc=0
tools/arena/arena --root "$here" run --agent replay --agent-config "$scratch/replay.yaml" \
  --tasks "$tasks" --gpus "$gpus" --runs-dir "$scratch/runs" >"$scratch/run.txt" 2>"$scratch/progress.txt" || rc=$?
# 1 is a verdict (a failed gate), compared below; anything else is not.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
  cat "$scratch/progress.txt" "$scratch/run.txt" >&2
  echo "leaderboard/replay.sh: the replay run itself failed (exit $rc)" >&2
  exit 2
fi
if [ "$device" = gpu ] && grep -q "device cpu" "$scratch/run.txt"; then
  echo "leaderboard/replay.sh: asked for a GPU replay, but the run found no GPU" >&2
  exit 1
fi
head -3 "$scratch/run.txt"
tools/arena/arena --root "$here" verdicts latest --runs-dir "$scratch/runs" "${committed[@]}"
