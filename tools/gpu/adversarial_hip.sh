#!/usr/bin/env bash
# The adversarial HIP candidates (tests/adversarial/hip/) on this GPU
# machine: each one is the candidate of hip2hip/elementwise/silu_mul (or of
# the task its "// task:" line names) in an arena run of its own (replay
# agent), every configuration checked and timed. From inside the bundle
# (tools/gpu/make_bundle.sh):
#
#   tools/gpu/adversarial_hip.sh OUT_DIR [CANDIDATE...]
#
# Prints, last, a table: each candidate, what it must get (its "expect:"
# line), what it got, the range of its per-configuration speedups and the
# first reason; writes each run's report under OUT_DIR.
set -uo pipefail
out="${1:?output folder}"
shift
mkdir -p "$out"
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
here="$(pwd)"
task=hip2hip/elementwise/silu_mul
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in tests/adversarial/hip/*/; do names+=("$(basename "$d")"); done
fi
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} | tee "$out/adversarial_hip.md"
# Each candidate's row, from its report.
cat >"$out/row.py" <<'PY'
import json, re, sys
out, names = sys.argv[1], sys.argv[2:]
for name in names:
    src = open(f"tests/adversarial/hip/{name}/kernel.hip").read()
    expect = re.search(r"^// expect: (\w+)", src, re.M).group(1)
    try:
        task = json.load(open(f"{out}/{name}.report.json"))["tasks"][0]
    except Exception as e:  # noqa: BLE001
        print(f"| {name} | {expect} | no report | | {e} |")
        continue
    stages = [task["candidate_compile"]] + [c["candidate_check"] for c in task["configs"]] + \
             [c["timing"]["stage"] for c in task["configs"]]
    failed = [s for s in stages if s["status"] not in ("passed", "skipped")]
    got = "passed"
    if any(s["detail"].startswith("integrity:") for s in failed):
        got = "integrity"
    elif failed:
        got = "failed"
    speedups = []
    for c in task["configs"]:
        b, cand = c["timing"]["baseline_us"], c["timing"]["candidate_us"]
        if c["timing"]["stage"]["status"] == "passed" and b and cand:
            med = lambda v: sorted(v)[len(v) // 2]
            speedups.append(med(b) / med(cand))
    span = f"{min(speedups):.2f}-{max(speedups):.2f}x ({len(speedups)})" if speedups else "-"
    reason = next((s["detail"] for s in failed if s["detail"].startswith("integrity:")),
                  failed[0]["detail"] if failed else "")
    # The arena's own verdict (what reports and leaderboards rank) must
    # agree: correct for a pass, not correct for anything caught.
    correct = bool((task.get("score") or {}).get("correct"))
    mark = "" if got == expect and correct == (expect == "passed") else " **MISMATCH**"
    verdict = "correct" if correct else "not correct"
    print(f"| {name} | {expect} | {got}{mark} | {verdict} | {span} | "
          f"{reason[:150].replace('|', '/')} |")
PY
printf '\n| candidate | must get | got | arena verdict | speedups | reason |\n|---|---|---|---|---|---|\n' | tee -a "$out/adversarial_hip.md"
for name in "${names[@]}"; do
  sub="$(mktemp -d)"
  # A candidate for another task names it ("// task: FAMILY/SUITE/TASK").
  for_task="$(sed -n 's|^// task: *||p' "tests/adversarial/hip/$name/kernel.hip" | head -1)"
  for_task="${for_task:-$task}"
  mkdir -p "$sub/$for_task"
  cp "tests/adversarial/hip/$name/kernel.hip" "$sub/$for_task/kernel.hip"
  echo "submissions: $sub" >"$sub/agent.yaml"
  start=$(date +%s)
  tools/arena/arena --root . run --agent replay --agent-config "$sub/agent.yaml" --tasks "$for_task" \
    --runs-dir "$here/runs-adv-hip/$(basename "$out")/$name" --stage-timeout 60 >"$out/$name.run.txt" 2>"$out/$name.progress.txt"
  echo "$name: arena exit $? after $(( $(date +%s) - start )) s" >>"$out/runs.txt"
  tools/arena/arena --root . report latest --runs-dir "$here/runs-adv-hip/$(basename "$out")/$name" --json >"$out/$name.report.json"
  rm -rf "$sub"
  # Its row at once: a run cut off by a time limit keeps the rows before it.
  python3 "$out/row.py" "$out" "$name" | tee -a "$out/adversarial_hip.md"
done
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
