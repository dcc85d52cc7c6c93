#!/usr/bin/env bash
# The reproducible leaderboard's GPU side (leaderboard/), from inside the
# bundle (tools/gpu/make_bundle.sh).
#
#   tools/gpu/leaderboard.sh record OUT [AGENT_BUDGET_S [AGENT...]]
#       each agent (default noop and autotune) over the board's tasks
#       (leaderboard/BUILD.bazel);
#       OUT gets each run's database (results/AGENT-DEVICE-DATE.db.gz) and
#       the submitted files of every agent but noop (whose files are the
#       baselines) in the replay layout (submissions/AGENT/<task id>/), to
#       commit under leaderboard/.
#   tools/gpu/leaderboard.sh verify OUT [AGENT...]
#       the GPU half of `bazel test //leaderboard/...`: every stored
#       submission (default: every agent's) replayed on this GPU, its
#       verdicts compared with the committed ones.
#
# OUT comes back as OUT.tgz.
set -uo pipefail
mode="${1:?record or verify}"
out="${2:?output folder}"
shift 2
mkdir -p "$out"
export ARENA_PYTHON="${ARENA_PYTHON:-python3}"
export PYTHONUNBUFFERED=1
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
date -u +"date: %Y-%m-%dT%H:%M:%SZ" | tee "$out/log.txt"
tools/arena/arena --root . devices | tee -a "$out/log.txt"
tasks=$(grep -o '"[a-z0-9_]*2[a-z0-9_]*/[^"]*"' leaderboard/BUILD.bazel | tr -d '"' | paste -sd, -)
case "$mode" in
  record)
    budget="${1:-20}"
    shift || true
    agents=("$@")
    [ ${#agents[@]} -gt 0 ] || agents=(noop autotune)
    day=$(date -u +%Y-%m-%d)
    mkdir -p "$out/results"
    for agent in "${agents[@]}"; do
      runs="$out/runs-$agent"
      start=$(date +%s)
      tools/arena/arena --root . run --agent "$agent" --agent-budget "$budget" --tasks "$tasks" \
        --runs-dir "$runs" >"$out/$agent-run.txt" 2>"$out/$agent-progress.txt"
      echo "$agent: arena exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/log.txt"
      tail -12 "$out/$agent-run.txt"
      python3 -c "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$runs/arena.db"
      gzip -c "$runs/arena.db" >"$out/results/$agent-h200-$day.db.gz"
      tools/arena/arena --root . report latest --runs-dir "$runs" --json | gzip >"$out/$agent-report.json.gz"
      [ "$agent" = noop ] && continue
      # The submitted files: runs/<run>/tasks/<id with __>/candidate/.
      for cand in "$runs"/*/tasks/*/candidate; do
        id=$(basename "$(dirname "$cand")" | sed 's|__|/|g')
        mkdir -p "$out/submissions/$agent/$id"
        cp -r "$cand/." "$out/submissions/$agent/$id/"
      done
    done
    rm -rf "$out"/runs-*
    ;;
  verify)
    agents=("$@")
    [ ${#agents[@]} -gt 0 ] || agents=($(ls leaderboard/submissions))
    for agent in "${agents[@]}"; do
      start=$(date +%s)
      leaderboard/replay.sh "$agent" gpu "$out/replay-$agent" >"$out/verify-$agent.txt" 2>&1
      echo "$agent: verdicts exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/log.txt"
      tail -12 "$out/verify-$agent.txt"
      rm -rf "$out/replay-$agent/committed"
    done
    ;;
  *) echo "tools/gpu/leaderboard.sh: record or verify, not '$mode'" >&2; exit 2 ;;
esac
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
