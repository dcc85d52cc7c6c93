"""A versus A of the same tasks over several runs, side by side: per
configuration of 10 us or more (the baseline's median), the median of its
rounds' paired ratios in each run, and per run how many are within
1.00 +- 0.02. Where each run's misses fall in other places and of either
sign, they are drawn anew each run (docs/results/hip-placement-h100-2026-12-07/).

  python3 tools/gpu/aa_compare.py NAME=report.json[.gz] NAME=report.json[.gz] ...
"""

import gzip
import json
import statistics
import sys

BAND = 0.02  # core/scoring.h's kNoiseBand
LEAST_US = 10.0


def ratios(path):
    """{(task, configuration): median paired ratio} for configurations of
    LEAST_US or more."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        report = json.load(f)
    out = {}
    for task in report["tasks"]:
        for c in task["configs"]:
            t = c.get("timing") or {}
            b, cd = t.get("baseline_us") or [], t.get("candidate_us") or []
            if b and cd and statistics.median(b) >= LEAST_US:
                out[(task["task_id"], c["name"])] = statistics.median(x / y for x, y in zip(b, cd))
    return out


def main(args):
    runs = []
    for arg in args:
        name, _, path = arg.partition("=")
        runs.append((name, ratios(path or name)))
    keys = sorted(set().union(*(r for _, r in runs)))
    print("| task | configuration | " + " | ".join(name for name, _ in runs) + " |")
    print("|---|---|" + "---:|" * len(runs))
    for task, config in keys:
        cells = []
        for _, r in runs:
            v = r.get((task, config))
            cells.append("-" if v is None else ("**%.3f**" if abs(v - 1) > BAND else "%.3f") % v)
        print(f"| {task} | {config} | " + " | ".join(cells) + " |")
    print()
    for name, r in runs:
        inside = sum(abs(v - 1) <= BAND for v in r.values())
        print(f"{name}: {inside}/{len(r)} configurations of {LEAST_US:.0f} us or more within "
              f"1.00 +- {BAND:.2f}" + (f" ({100 * inside / len(r):.1f}%)" if r else ""))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
