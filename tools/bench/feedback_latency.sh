#!/usr/bin/env bash
# Latency of an agent's ./feedback calls on one task, as an agent sees them:
# a stand-in for the Claude Code CLI (put first on PATH) calls ./feedback
# CALLS times in a row inside the agent sandbox, and this prints the wall
# time of each call. The first call opens the family's session (workers,
# the baseline's compile); later ones reuse it.
#
#   tools/bench/feedback_latency.sh [TASK] [CALLS]
#
# Needs no model and no network; on a machine without a GPU the feedback
# checks the small configuration only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
task="${1:-triton2triton/reductions/row_sum}"
calls="${2:-4}"
tmp="$(mktemp -d /tmp/arena-fb-bench.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat >"$tmp/bin/claude" <<STANDIN
#!/bin/bash
# Reads the prompt like claude -p, then asks for feedback $calls times.
for i in \$(seq $calls); do
  s=\$(date +%s.%N)
  out=\$(./feedback 2>&1)
  rc=\$?
  e=\$(date +%s.%N)
  echo "feedback call \$i: exit \$rc, \$(awk "BEGIN{printf \\"%.2f\\", \$e - \$s}") s: \$(echo "\$out" | tr "\\n" " " | cut -c1-160)"
done
echo '{"type":"result","subtype":"success","is_error":false,"result":"done"}'
STANDIN
chmod +x "$tmp/bin/claude"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; task $task"
PATH="$tmp/bin:$PATH" "$root/arena" run --agent claude-code --tasks "$task" \
  --runs-dir "$tmp/runs" >"$tmp/run.txt" 2>"$tmp/progress.txt" || true
grep -h "feedback call" "$tmp"/runs/*/tasks/*/agent.log || {
  cat "$tmp/progress.txt" "$tmp/run.txt" >&2
  exit 1
}
