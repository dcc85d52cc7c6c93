#!/usr/bin/env bash
# Workers started ahead against started when their evaluation opens: runs
# the noop agent over TASKS twice per mode (ENV=0, then ENV=1, in turns, so
# that the build cache and the page cache favour neither) and prints each
# task's wall time and whether its worker was started ahead (after a run
# that is not counted).
#
#   tools/bench/prestart.sh ARENA_TORCH2HIP_PRESTART torch2hip/activations/elu,torch2hip/activations/mish
set -euo pipefail
env_name="$1" tasks="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
./arena tasks --tasks "$tasks" >/dev/null  # builds the arena first
# A run not counted: the candidates' builds cached, the files read once.
./arena run --agent noop --tasks "$tasks" --runs-dir "$out/warm" >"$out/warm.log" 2>&1
for pass in 1 2; do
  for mode in 0 1; do
    start=$(date +%s.%N)
    env "$env_name=$mode" ./arena run --agent noop --tasks "$tasks" --runs-dir "$out/$mode-$pass" >"$out/$mode-$pass.log" 2>&1
    echo "$mode $pass $(echo "$(date +%s.%N) - $start" | bc)" >>"$out/walls.txt"
  done
done
python3 - "$out" "$env_name" <<'PY'
import glob, json, os, statistics, sys
out, env = sys.argv[1], sys.argv[2]
walls = {}
for line in open(os.path.join(out, "walls.txt")):
    mode, _, wall = line.split()
    walls.setdefault(mode, []).append(float(wall))
print(f"| {env} | task | wall s (two runs) | worker started ahead |")
print("|---|---|---|---|")
per = {}
for mode in ("0", "1"):
    for f in sorted(glob.glob(os.path.join(out, f"{mode}-*", "*", "tasks", "*", "result.json"))):
        r = json.load(open(f))
        m = (r.get("baseline_compile") or {}).get("metrics") or {}
        ahead = m.get("reference_started_ahead", m.get("judge_started_ahead"))
        per.setdefault((mode, r["task_id"]), []).append((r.get("wall_s", 0.0), ahead))
for (mode, task), runs in sorted(per.items()):
    print(f"| {mode} | {task} | {' '.join('%.2f' % w for w, _ in runs)} | {' '.join(str(a) for _, a in runs)} |")
for mode in ("0", "1"):
    tasks = [statistics.median(w for w, _ in runs) for (m, _), runs in per.items() if m == mode]
    print(f"{env}={mode}: whole runs {' '.join('%.2f' % w for w in walls[mode])} s; "
          f"median task {statistics.median(tasks):.2f} s")
PY
