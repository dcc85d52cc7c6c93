#!/usr/bin/env bash
# `arena run --scheduler slurm` through a one-node Slurm cluster started
# here (tools/slurm/local_cluster.sh): a run submitted as an array job and
# waited for; a job cancelled before its elements ran, whose tasks are then
# recorded as lost, and a resume that evaluates them again; a job sbatch
# refuses, which is an error and leaves no submission behind.
set -uo pipefail

arena="$PWD/tools/arena/arena"
root="$PWD"
# Short: munge's socket path must fit a unix socket address.
cluster="$(mktemp -d /tmp/arena-slurm.XXXXXX)"
trap 'tools/slurm/local_cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
source tests/check.sh

if ! conf="$(tools/slurm/local_cluster.sh start "$cluster")"; then
  echo "FAIL the one-node cluster did not start (tools/setup.sh installs slurm-wlm and munge)"
  exit 1
fi
export "${conf?}"
runs="$cluster/runs"
count_results() {  # count_results RUN: results stored for the run, and how many correct
  "$arena" --root "$root" report "$1" --runs-dir "$runs" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(len(r["tasks"]), sum(1 for t in r["tasks"] if t["score"]["correct"]), r["run"]["status"])'
}

# --- a run submitted and waited for ---
out=$("$arena" --root "$root" run --scheduler slurm --agent noop --gpus none --runs-dir "$runs" \
  --tasks triton2triton/elementwise/gelu,triton2triton/elementwise/axpby 2>&1)
rc=$?
echo "$out" | tail -20
check "a run through Slurm exits 0" test "$rc" -eq 0
check "... submitted as one array job" grep -q "2 task(s) submitted as Slurm job [0-9]" <<<"$out"
check "... each task's verdict as its element's result arrives" \
  test "$(grep -c '^\[[12]/2\] triton2triton/elementwise/[a-z]*: correct' <<<"$out")" -eq 2
run=$(sed -n 's/^run \([^ ]*\): 2 task(s) submitted.*/\1/p' <<<"$out")
check "... both results in the run's database, the run finished" \
  test "$(count_results "$run")" = "2 2 finished"
check "... each element with a database of its own" \
  test "$(ls "$runs/$run"/slurm/elements/0-*/arena.db | wc -l)" -eq 2

# --- a cancelled job: its tasks lost, then evaluated again by a resume ---
out=$("$arena" --root "$root" run --scheduler slurm --agent noop --gpus none --runs-dir "$runs" \
  --tasks triton2triton/elementwise/quick_gelu --no-wait --sbatch-arg=--hold 2>&1)
rc=$?
check "--no-wait submits and returns (exit 1: nothing evaluated yet)" test "$rc" -le 1
run=$(sed -n 's/^run \([^ ]*\): 1 task(s) submitted.*/\1/p' <<<"$out")
check "... and says how to collect" grep -q -- "--resume $run --scheduler slurm" <<<"$out"
scancel --name="arena-$run-0"
out=$("$arena" --root "$root" run --resume "$run" --scheduler slurm --gpus none --runs-dir "$runs" \
  --no-wait 2>&1)
echo "$out" | head -5
check "a cancelled element is recorded as lost, with Slurm's word for it" \
  grep -q "quick_gelu: LOST (element 0 of Slurm job [0-9]* ended CANCELLED without a result)" <<<"$out"
check "... and submitted again by the resume" grep -q "1 task(s) submitted as Slurm job" <<<"$out"
job=$(sed -n 's/.*1 task(s) submitted as Slurm job \([0-9]*\).*/\1/p' <<<"$out")
check "... as the run was first submitted (held, as its sbatch arguments say)" \
  grep -q "JobState=PENDING Reason=JobHeldUser" <(scontrol -o show job "$job")
report=$("$arena" --root "$root" report "$run" --runs-dir "$runs" 2>&1)
check "... a failure in the report meanwhile" grep -q "FAILED: element 0 of Slurm job" <<<"$report"
out=$("$arena" --root "$root" run --resume "$run" --scheduler slurm --gpus none --runs-dir "$runs" \
  --no-wait 2>&1)
check "a resume does not submit a task whose element is still in the queue" \
  grep -q "nothing to submit; 1 task(s) still in the queue" <<<"$out"
scontrol release "$job"
out=$("$arena" --root "$root" run --resume "$run" --scheduler slurm --gpus none --runs-dir "$runs" 2>&1)
rc=$?
check "a resume that waits ends with the task correct (exit 0)" test "$rc" -eq 0
check "... the lost result replaced, the run finished" test "$(count_results "$run")" = "1 1 finished"

# --- sbatch refuses: an error, nothing half-written ---
out=$("$arena" --root "$root" run --scheduler slurm --agent noop --gpus none --runs-dir "$runs" \
  --tasks triton2triton/elementwise/gelu --partition no-such-partition 2>&1)
rc=$?
check "a job sbatch refuses fails the command" test "$rc" -ne 0
check "... saying so" grep -q "sbatch refused the run's job" <<<"$out"
run=$(ls -t "$runs" | grep '^noop-' | head -1)
check "... and leaves no submission record" test ! -e "$runs/$run/slurm/submission-0.json"

finish
