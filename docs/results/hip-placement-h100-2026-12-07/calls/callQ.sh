#!/usr/bin/env bash
# One call, from inside the bundle: the HIP tasks whose configurations of
# 10 us or more sat off in A versus A with tight spreads in the family run
# of hip-pieces-family-2026-12-07 (topk_rows 0.912, transpose_2d 1.052,
# softmax_rows 0.963, segmented_sum 0.967-0.980, log_softmax_rows 1.032,
# cross_entropy 0.969), run again as they were (16 MiB pieces), then with
# lent memory in 2 MiB pieces (ARENA_LEND_PIECE_BYTES), to tell whether
# the offsets follow the lent memory's placement.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy
for mode in p16 p2; do
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db*
  piece=""
  [ "$mode" = p2 ] && piece=2097152
  ARENA_LEND_PIECE_BYTES=$piece timeout 200 tools/gpu/run_family.sh "$t" "$OUT/$mode" 190 >/dev/null 2>&1
  mkdir -p "$OUT/$mode.x" && tar xzf "$OUT/$mode.tgz" -C "$OUT/$mode.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## $mode"; grep "arena exit" "$OUT/$mode.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|calls of|calls under|wall time per" "$OUT/$mode.x/table.md" | cut -c1-160
done
python3 - "$OUT/p16.x/report.json" "$OUT/p2.x/report.json" <<'PY'
import json, statistics, sys
def ratios(path):
    out = {}
    try:
        tasks = json.load(open(path))["tasks"]
    except (OSError, ValueError):
        return out
    for t in tasks:
        for c in t["configs"]:
            tm = c.get("timing") or {}
            b, cd = tm.get("baseline_us") or [], tm.get("candidate_us") or []
            if b and statistics.median(b) >= 10:
                out[(t["task_id"].split("/")[-1], c["name"][:34])] = statistics.median([x / y for x, y in zip(b, cd)])
    return out
a, b = ratios(sys.argv[1]), ratios(sys.argv[2])
print("| task | config | 16 MiB | 2 MiB |")
for k in sorted(set(a) | set(b)):
    print("| %s | %s | %s | %s |" % (k[0], k[1], "%.3f" % a[k] if k in a else "-", "%.3f" % b[k] if k in b else "-"))
for name, r in (("16 MiB", a), ("2 MiB", b)):
    if r:
        print("%s: %d/%d within 1.00 +- 0.02 (10 us or more)" % (name, sum(abs(v - 1) <= 0.02 for v in r.values()), len(r)))
PY
