#!/usr/bin/env bash
# One deliberately broken HIP candidate for each failure kind, in one arena
# run (replay agent), followed by a correct candidate: the run must record
# each failure against its candidate and go on. From inside the bundle
# (tools/gpu/make_bundle.sh):
#
#   tools/gpu/broken_hip.sh OUT_DIR [STAGE_TIMEOUT_S] [TASKS]
#
# tools/gpu/broken_hip/<task id>/kernel.hip: does not compile (silu_mul),
# wrong result (gelu_bias), segfault on the host (rmsnorm), a kernel that
# never ends (layernorm), an illegal address (row_sum), an int32 output
# left unwritten on its last row (argmax_rows). The correct one is
# transpose_2d's baseline, copied here.
set -uo pipefail
# Candidates are built and run sandboxed: the bundle carries bubblewrap.
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
out="${1:?output folder}"
stage_timeout="${2:-20}"
mkdir -p "$out"
here="$(pwd)"
sub="$(mktemp -d)"
cp -r tools/gpu/broken_hip/. "$sub/"
mkdir -p "$sub/hip2hip/transpose/transpose_2d"
cp tasks/hip2hip/transpose/transpose_2d/kernel.hip "$sub/hip2hip/transpose/transpose_2d/"
echo "submissions: $sub" >"$sub/agent.yaml"
tasks="hip2hip/elementwise/silu_mul,hip2hip/elementwise/gelu_bias,hip2hip/norms/rmsnorm"
tasks+=",hip2hip/norms/layernorm,hip2hip/reductions/row_sum,hip2hip/reductions/argmax_rows"
tasks+=",hip2hip/transpose/transpose_2d"
tasks="${3:-$tasks}"  # a subset, e.g. hip2hip/norms/layernorm for the hang alone
start=$(date +%s)
tools/arena/arena --root . run --agent replay --agent-config "$sub/agent.yaml" --tasks "$tasks" \
  --runs-dir "$here/runs-broken" --stage-timeout "$stage_timeout" ${GPUS:+--gpus "$GPUS"} >"$out/broken_run.txt" \
  2>"$out/broken_progress.txt"
echo "arena exit $? after $(( $(date +%s) - start )) s (1 = some candidate failed a gate)" >"$out/broken.md"
tools/arena/arena --root . report latest --runs-dir "$here/runs-broken" --json >"$out/broken_report.json"
python3 - "$out/broken_report.json" >>"$out/broken.md" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("\n| task | candidate compile | first failing check | detail |")
print("|---|---|---|---|")
for t in r["tasks"]:
    comp = t["candidate_compile"]
    first, detail = "-", ""
    errors = [l for l in comp["log"].splitlines() if "error" in l]
    if comp["status"] != "passed":
        first = "compile"
        detail = comp["detail"] + (": " + errors[0].split("/")[-1][:100] if errors else "")
    for c in t["configs"] if comp["status"] == "passed" else []:
        if c["candidate_check"]["status"] not in ("passed",):
            first = f"{c['name']}: {c['candidate_check']['status']}"
            detail = c["candidate_check"]["detail"][:120]
            break
    else:
        if comp["status"] == "passed":
            first = "none: all configurations correct"
    print(f"| {t['task_id']} | {comp['status']} | {first} | {detail.replace('|', '/')} |")
PY
rm -rf "$sub"
cat "$out/broken.md"
# What comes back from a GPU machine is a few files: the folder goes as one
# archive beside it, written as soon as this script is done.
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
