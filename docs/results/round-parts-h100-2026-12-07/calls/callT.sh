#!/usr/bin/env bash
# One call, from inside the bundle: where the candidate's timed Triton
# rounds lose a constant 35-90 us against the baseline's in A versus A
# (prestart-2026-12-07: every task of calls p0 and p1, whatever the order
# in the round). Two noop tasks, first as the arena starts them, then with
# the whole arena held to the first NUMA node's CPUs (taskset); each
# timing reports its rounds' parts per subject (round_parts: the judge's
# clock to the split and after "go", the runner's own launches and its
# wait for "go") and the CPUs the judge and the runners ran on.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
lscpu | grep -E "^(CPU\(s\)|Model name|Thread|Core|Socket|NUMA)" | tr -s ' '
node0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null || echo 0-7)
tr=triton2triton/attention/attention_decode,triton2triton/conv/conv1d
for mode in free pinned; do
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
  pin=""
  [ "$mode" = pinned ] && pin="taskset -c $node0"
  $pin timeout 95 tools/gpu/run_family.sh "$tr" "$OUT/$mode" 85 >/dev/null 2>&1
  mkdir -p "$OUT/$mode.x" && tar xzf "$OUT/$mode.tgz" -C "$OUT/$mode.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $mode ${pin}"; grep "arena exit" "$OUT/$mode.x/log.txt"
  grep -E "integrity|A versus A" "$OUT/$mode.x/table.md" | cut -c1-160
  python3 - "$OUT/$mode.x/report.json" <<'PY'
import collections, json, statistics, sys
diffs, cpus = collections.defaultdict(list), collections.Counter()
print("| task | config | A/A | count | b-c us/round | to_split b/c | after_go b/c | go_wait b/c | rest b/c | first_launch b/c |")
for t in json.load(open(sys.argv[1]))["tasks"]:
    for c in t["configs"]:
        tm = c.get("timing") or {}
        b, cd = tm.get("baseline_us") or [], tm.get("candidate_us") or []
        m = (tm.get("stage") or {}).get("metrics") or {}
        rp = m.get("round_parts")
        if not b or not rp:
            continue
        n = m.get("sets_per_round", 1)
        d = statistics.median([(x - y) * n for x, y in zip(b, cd)])
        cells = []
        for k in ("to_split_us", "after_go_us", "go_wait_us", "rest_us", "first_launch_us"):
            bb, cc = rp["baseline"].get(k), rp["candidate"].get(k)
            cells.append("%s/%s" % (bb, cc))
            if bb is not None and cc is not None:
                diffs[k].append(bb - cc)
        for s in ("baseline", "candidate"):
            for key, count in rp[s]["cpus"].items():
                cpus[s + " " + key] += count
        diffs["round"].append(d)
        print("| %s | %s | %.4f | %d | %.1f | %s |" % (t["task_id"].split("/")[-1], c["name"][:34],
              statistics.median([x / y for x, y in zip(b, cd)]), n, d, " | ".join(cells)))
print("median baseline-candidate (us):", {k: round(statistics.median(v), 1) for k, v in diffs.items()})
print("judge/sandbox/runner CPUs (rounds):", dict(cpus.most_common(12)))
PY
done
