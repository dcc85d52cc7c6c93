#!/usr/bin/env bash
# End-to-end tests of the arena command with the test-only fake family:
# exit codes, bad input, eval, reports, and a run killed with SIGKILL and
# resumed, which must give the same final report as an uninterrupted run.
set -uo pipefail

arena="$PWD/tools/arena/arena_for_tests"
fake_root="$PWD/tests/testdata"
broken_root="$PWD/tests/testdata/broken"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/check.sh

# --- bad input: exit 2, a message naming file:line:column and the field ---
out=$("$arena" --root "$broken_root" tasks --tasks fake/suite/bad 2>&1)
rc=$?
check "bad task exits 2" test "$rc" -eq 2
check "bad task names file, line and field" \
  grep -q 'tasks/fake/suite/bad/task.yaml:18:30: configs.heldout\[1\].m: expected a scalar parameter' <<<"$out"

out=$("$arena" --root "$broken_root" tasks --tasks fake/suite 2>&1)
check "every broken task is named at once (exit 2)" test $? -eq 2
check "... two broken, one line each" test "$(grep -c '^arena: .*task.yaml:[0-9]*:[0-9]*: ' <<<"$out")" -eq 2
check "... and the valid one still listed" grep -q "^fake/suite/constant " <<<"$out"
"$arena" --root "$broken_root" run --agent noop --tasks fake/suite --runs-dir "$tmp/broken_runs" \
  >"$tmp/broken_run.txt" 2>&1
check "a run over broken and valid tasks evaluates the valid ones (exit 1)" test $? -eq 1
check "... and records the broken ones as task errors" \
  grep -q "task errors (broken tasks, not evaluated): 2" "$tmp/broken_run.txt"
check "... with their positions" grep -q "fake/suite/wrongtype: .*task.yaml:2[0-9]:[0-9]*: cost.flops" \
  "$tmp/broken_run.txt"
check "... the valid task evaluated" grep -q "^fake/suite/constant " "$tmp/broken_run.txt"
out=$("$arena" --root "$broken_root" tasks --tasks nosuch 2>&1)
check "unknown family exits 2" test $? -eq 2
check "unknown family names file, line and field" \
  grep -q 'tasks/nosuch/suite/t/task.yaml:1:9: family: no plugin named .nosuch.' <<<"$out"
check "one line" test "$(wc -l <<<"$out")" -eq 1
out=$("$arena" --root "$broken_root" tasks --tasks fake/suite/wrongtype 2>&1)
check "wrong type exits 2" test $? -eq 2
check "wrong type names file, line and field" \
  grep -q 'tasks/fake/suite/wrongtype/task.yaml:2[0-9]:[0-9]*: cost.flops: expected a string' <<<"$out"
out=$("$arena" --root "$broken_root" tasks --validate --tasks fake/suite/constant 2>&1)
check "a degenerate task fails validation" test $? -eq 1
check "degeneracy is named" grep -q "degenerate output on small" <<<"$out"

"$arena" --root "$fake_root" run --agent nobody --runs-dir "$tmp/bad_runs" >/dev/null 2>&1
check "unknown agent exits 2" test $? -eq 2
for flags in "--seed -1" "--seed 1.5" "--agent-budget -5" "--stage-timeout 1e10" \
    "--stage-timeout 0" "--stage-timeout nan"; do
  read -r -a f <<<"$flags"
  out=$("$arena" --root "$fake_root" run --agent noop "${f[@]}" --runs-dir "$tmp/bad_runs" 2>&1)
  rc=$?
  check "run $flags exits 2" test "$rc" -eq 2
  check "run $flags names the flag" grep -q -- "${f[0]}" <<<"$out"
done
check "nothing half-written for a bad run" test ! -e "$tmp/bad_runs/arena.db" -o -z "$(ls "$tmp/bad_runs" | grep -v arena.db)"

"$arena" --root "$fake_root" run --tasks nothing/here --runs-dir "$tmp/bad_runs2" >/dev/null 2>&1
check "empty selection exits 2" test $? -eq 2

"$arena" --root "$fake_root" nosuchcommand >/dev/null 2>&1
check "unknown subcommand exits 2" test $? -eq 2

"$arena" --help >/dev/null
check "--help exits 0" test $? -eq 0

# --- tasks and validation ---
out=$("$arena" --root "$fake_root" tasks)
check "tasks lists three fake tasks" test "$(grep -c '^fake/suite/' <<<"$out")" -eq 3
out=$("$arena" --root "$fake_root" tasks --validate 2>&1)
check "fake tasks validate" test $? -eq 0
check "validation reports the degeneracy check" grep -q "output varies with the inputs" <<<"$out"

# --- eval: correct and wrong candidates ---
mkdir -p "$tmp/good" "$tmp/wrong"
printf 'time_us: 50\n' >"$tmp/good/kernel.fake"
printf 'wrong_on: [heldout]\ntime_us: 10\n' >"$tmp/wrong/kernel.fake"
out=$("$arena" --root "$fake_root" eval --task fake/suite/alpha --candidate "$tmp/good" --seed 3)
check "eval of a correct candidate exits 0" test $? -eq 0
check "eval prints the speedup" grep -q "2.000x" <<<"$out"
out=$("$arena" --root "$fake_root" eval --task fake/suite/alpha --candidate "$tmp/wrong" 2>/dev/null)
check "eval of a wrong candidate exits 1" test $? -eq 1
check "wrong on held-out is optimization_regressed" grep -q "optimization_regressed" <<<"$out"

# --- an agent's configuration is checked against its schema before anything runs ---
printf 'max_evals: many\nmin_gain: 0.02\n' >"$tmp/autotune_bad.yaml"
out=$("$arena" --root "$fake_root" run --agent autotune --agent-config "$tmp/autotune_bad.yaml" \
  --tasks fake --runs-dir "$tmp/config_runs" 2>&1)
check "a bad agent config exits 2" test $? -eq 2
check "... naming file, line, column and field" \
  grep -q "autotune_bad.yaml:1:12: autotune.max_evals: expected a whole number" <<<"$out"
check "... before any run is made" test ! -e "$tmp/config_runs/arena.db"
out=$("$arena" --root "$fake_root" run --agent replay --tasks fake --runs-dir "$tmp/config_runs" 2>&1)
check "a required field without a config file exits 2" test $? -eq 2
check "... naming it" grep -q "no --agent-config given: replay: missing section (submissions)" <<<"$out"
printf 'submissions: /x\nsubmission: /y\n' >"$tmp/replay_typo.yaml"
out=$("$arena" --root "$fake_root" run --agent replay --agent-config "$tmp/replay_typo.yaml" \
  --tasks fake --runs-dir "$tmp/config_runs" 2>&1)
check "an unknown field is an error" grep -q "replay_typo.yaml:2:1: replay.submission: unknown field" <<<"$out"

# --- a replayed run, uninterrupted, as the reference ---
for t in alpha beta gamma; do
  mkdir -p "$tmp/subs/fake/suite/$t"
  printf 'time_us: 40\nsleep_ms: 150\n' >"$tmp/subs/fake/suite/$t/kernel.fake"
done
printf 'submissions: %s\n' "$tmp/subs" >"$tmp/replay.yaml"
"$arena" --root "$fake_root" run --agent replay --agent-config "$tmp/replay.yaml" \
  --tasks fake --seed 11 --runs-dir "$tmp/ref_runs" >"$tmp/ref_out.txt" 2>&1
check "reference run exits 0" test $? -eq 0
ref_id=$(ls "$tmp/ref_runs" | grep -v arena.db)
"$arena" report "$ref_id" --runs-dir "$tmp/ref_runs" | tail -n +2 >"$tmp/ref_report.txt"

# --- a candidate whose compiler echoes bytes that are not UTF-8 (a compile
# log quoting its source): the result is stored, the run goes on ---
mkdir -p "$tmp/subs_bytes/fake/suite/alpha" "$tmp/subs_bytes/fake/suite/beta"
printf 'compile: "kernel.fake:1: unexpected \xff\xfe\xc3\x28 here"\n' >"$tmp/subs_bytes/fake/suite/alpha/kernel.fake"
printf 'time_us: 40\n' >"$tmp/subs_bytes/fake/suite/beta/kernel.fake"
printf 'submissions: %s\n' "$tmp/subs_bytes" >"$tmp/replay_bytes.yaml"
"$arena" --root "$fake_root" run --agent replay --agent-config "$tmp/replay_bytes.yaml" \
  --tasks fake/suite/alpha,fake/suite/beta --runs-dir "$tmp/bytes_runs" >"$tmp/bytes_out.txt" 2>&1
status=$?
check "bytes that are not UTF-8 in a compile log: a failed task (exit 1), not an abort" test $status -eq 1
check "... the next task evaluated" grep -q "fake/suite/beta: correct" "$tmp/bytes_out.txt"
"$arena" report latest --runs-dir "$tmp/bytes_runs" --json >"$tmp/bytes_report.json"
check "... the stored log readable, the bytes replaced" python3 -c '
import json, sys
tasks = {t["task_id"]: t for t in json.load(open(sys.argv[1]))["tasks"]}
log = tasks["fake/suite/alpha"]["candidate_compile"]["log"]
assert "unexpected \ufffd" in log and log.endswith(" here"), log
' "$tmp/bytes_report.json"

# --- the same run, killed with SIGKILL after its first task, then resumed ---
"$arena" --root "$fake_root" run --agent replay --agent-config "$tmp/replay.yaml" \
  --tasks fake --seed 11 --runs-dir "$tmp/runs" >"$tmp/killed_out.txt" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  n=$(sqlite3 "$tmp/runs/arena.db" "SELECT count(*) FROM task_results" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 1 ] && break
  sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
run_id=$(ls "$tmp/runs" | grep -v arena.db | head -1)
done_before=$(sqlite3 "$tmp/runs/arena.db" "SELECT count(*) FROM task_results")
check "the kill interrupted the run (finished $done_before of 3)" test "$done_before" -ge 1 -a "$done_before" -lt 3
check "an interrupted run is not marked finished" \
  test "$(sqlite3 "$tmp/runs/arena.db" "SELECT status FROM runs")" = "running"
"$arena" --root "$fake_root" run --resume "$run_id" --runs-dir "$tmp/runs" >"$tmp/resume_out.txt" 2>&1
check "resume exits 0" test $? -eq 0
check "resume skipped the finished tasks" grep -q "already finished" "$tmp/resume_out.txt"
"$arena" report "$run_id" --runs-dir "$tmp/runs" | tail -n +2 >"$tmp/resumed_report.txt"
check "resumed report equals the uninterrupted one" diff "$tmp/ref_report.txt" "$tmp/resumed_report.txt"
check "every task stored once" \
  test "$(sqlite3 "$tmp/runs/arena.db" "SELECT count(*) FROM task_results")" -eq 3
check "run marked finished" test "$(sqlite3 "$tmp/runs/arena.db" "SELECT status FROM runs")" = "finished"

# --- the results database under stress ---
out=$(flock "$tmp/runs/.$run_id.lock" "$arena" --root "$fake_root" run --resume "$run_id" \
  --runs-dir "$tmp/runs" 2>&1)
check "a second resume of a run in progress is refused" test $? -eq 1
check "the refusal says why" grep -q "is being evaluated by another arena process" <<<"$out"
mkdir -p "$tmp/archive" "$tmp/corrupt"
cp "$tmp/runs/arena.db" "$tmp/archive/arena.db"
cp "$tmp/runs/arena.db" "$tmp/archive.orig.db"
chmod -R a-w "$tmp/archive"
"$arena" report "$run_id" --runs-dir "$tmp/archive" >"$tmp/archive_report.txt" 2>&1
check "a read-only archive is reported" test $? -eq 0
check "reading an archive leaves it as it was" cmp -s "$tmp/archive/arena.db" "$tmp/archive.orig.db"
chmod -R u+w "$tmp/archive"
cp "$tmp/runs/arena.db" "$tmp/corrupt/arena.db"
sqlite3 "$tmp/corrupt/arena.db" \
  "UPDATE task_results SET result_json = substr(result_json, 3) WHERE rowid = (SELECT min(rowid) FROM task_results)"
"$arena" report "$run_id" --runs-dir "$tmp/corrupt" >"$tmp/corrupt_out.txt" 2>"$tmp/corrupt_err.txt"
check "a corrupt stored result fails the report (exit 1), never an abort" test $? -eq 1
check "the corrupt result is named" grep -q "stored result unreadable" "$tmp/corrupt_err.txt"
check "the rest is still reported" grep -q "compiled 2/2" "$tmp/corrupt_out.txt"
check "no temporary files left" test -z "$(find "$tmp/runs" -name '*.tmp.*')"

# --- report formats ---
"$arena" report latest --runs-dir "$tmp/runs" --json | python3 -c \
  'import json,sys; d=json.load(sys.stdin); assert d["summary"]["correct"] == 3, d["summary"]'
check "report --json parses and counts 3 correct" test $? -eq 0
csv=$("$arena" report "$run_id" --runs-dir "$tmp/runs" --csv)
check "report --csv has a header and 15 rows" test "$(wc -l <<<"$csv")" -eq 16
check "speedup 2.5 in the csv" grep -q ",2.5000," <<<"$csv"
"$arena" report no-such-run --runs-dir "$tmp/runs" >/dev/null 2>&1
check "report of an unknown run exits 2" test $? -eq 2

# --- leaderboard, comparison, HTML page ---
# runs/ holds the resumed run, ref_runs/ the uninterrupted one: the same
# candidates, so every task is a tie.
"$arena" report "$run_id" --runs-dir "$tmp/runs" --html "$tmp/run.html" >/dev/null
check "report --html writes a page" grep -q "Speedup per configuration" "$tmp/run.html"
board=$("$arena" leaderboard --runs-dir "$tmp/runs" --tasks fake)
check "leaderboard ranks the run" grep -q "^1 .*$run_id" <<<"$board"
check "leaderboard names its board (device, scoring version)" grep -q "^board: cpu, scoring v" <<<"$board"
report_json=$("$arena" report "$run_id" --runs-dir "$tmp/runs" --json)
check "each result records its provenance (task hash, build)" \
  test "$(grep -oE '"task_hash": ?"[0-9a-f]{64}"' <<<"$report_json" | wc -l)" -ge 3 \
  -a -n "$(grep -oE '"arena_build": ?"[0-9a-f]{64}"' <<<"$report_json")"
"$arena" merge "$tmp/runs/arena.db" "$tmp/ref_runs/arena.db" --runs-dir "$tmp/both" >"$tmp/merge.txt" 2>&1
check "merge of two databases exits 0" test $? -eq 0
check "merge reports each run" test "$(grep -c ': new, 3 task(s) added$' "$tmp/merge.txt")" -eq 2
"$arena" merge "$tmp/ref_runs/arena.db" --runs-dir "$tmp/both" >"$tmp/merge2.txt" 2>&1
check "merging again adds nothing" grep -q "0 new run(s), 0 task result(s) added, 3 already here" "$tmp/merge2.txt"
"$arena" merge "$tmp/no-such.db" --runs-dir "$tmp/both" >"$tmp/merge3.txt" 2>&1
check "merge of a missing database exits 2 naming it" \
  test $? -eq 2 -a -n "$(grep "no-such.db: no such results database" "$tmp/merge3.txt")"
echo "not a database" >"$tmp/text.db"
"$arena" merge "$tmp/text.db" --runs-dir "$tmp/both" >"$tmp/merge4.txt" 2>&1
check "merge of a file that is not a database exits 2 naming it" \
  test $? -eq 2 -a -n "$(grep "text.db: not a results database (file is not a database)" "$tmp/merge4.txt")"
cmp=$("$arena" compare "$ref_id" "$run_id" --runs-dir "$tmp/both" 2>&1)
check "compare of two runs of the same candidates: all ties" grep -q "ties 3 (within 2%)" <<<"$cmp"
byagent=$("$arena" leaderboard --runs-dir "$tmp/both" --tasks fake --by-agent)
# Both replay runs evaluated the same tasks: the later one supplies them
# all, and the row is named by it alone (the two may share a creation second).
check "leaderboard --by-agent: the two replay runs make one row, named by one run" \
  test "$(grep -c '^[0-9] *replay ' <<<"$byagent")" -eq 1 \
  -a "$(grep -cE "^[0-9] *replay *($ref_id|$run_id) " <<<"$byagent")" -eq 1
"$arena" compare "$ref_id" nosuchrun --runs-dir "$tmp/both" >/dev/null 2>&1
check "compare with an unknown run exits 2" test $? -eq 2

# --- a command-line agent in the sandbox, using ./feedback ---
PATH="$PWD/tests/testdata/bin:$PATH" "$arena" --root "$fake_root" run --agent claude-code \
  --tasks fake/suite/alpha --seed 5 --runs-dir "$tmp/cli_runs" >"$tmp/cli_out.txt" 2>&1
check "sandboxed CLI agent run exits 0" test $? -eq 0
cli_id=$(ls "$tmp/cli_runs" | grep -v arena.db)
fb="$tmp/cli_runs/$cli_id/tasks/fake__suite__alpha/workspace/feedback.out"
check "./feedback answered inside the sandbox" grep -q "t1: correct" "$fb"
check "feedback never shows held-out configurations" test -z "$(grep -E 'h1|h2' "$fb")"
check "the agent's edit was evaluated (2.000x)" grep -q "2.000x" "$tmp/cli_out.txt"
quick="${fb%/*}/feedback_quick.out"
check "./feedback --configs t1 --check-only: t1 checked" grep -q "^t1: correct, not timed" "$quick"
check "./feedback --configs t1: no other configuration" test -z "$(grep -E '^(t2|small):' "$quick")"
check "./feedback --check-only exits 0 when correct" grep -q "feedback exit 0" "$quick"
bad="${fb%/*}/feedback_bad.out"
check "./feedback --configs with a held-out name: refused, exit 2" grep -q "feedback exit 2" "$bad"
check "the refusal lists only visible configurations" \
  grep -q "no visible configuration named 'h1' (visible: small, t1, t2)" "$bad"
check "both evaluated feedback calls were counted (the refused one not)" \
  grep -q "fb=2" "$tmp/cli_out.txt"

finish
