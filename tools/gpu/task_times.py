"""Where each task's evaluation time went, from a run's report.json (or
report.json.gz): its wall time, both compile stages, the checks, the
timing stages, and the timing's phases summed over its configurations
(the Triton judge's: lend, capture, rounds, ...). Prints a markdown
table, then the median wall time per task.

    python3 tools/gpu/task_times.py REPORT
"""

import collections
import gzip
import json
import statistics
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def seconds(stage):
    return float((stage or {}).get("seconds") or 0.0)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: task_times.py REPORT")
    report = load(argv[1])
    rows, walls = [], []
    for task in report.get("tasks", []):
        phases = collections.Counter()
        checks = timing = 0.0
        sets = []
        for config in task.get("configs", []):
            checks += seconds(config.get("baseline_check")) + seconds(config.get("candidate_check"))
            stage = (config.get("timing") or {}).get("stage") or {}
            timing += seconds(stage)
            metrics = stage.get("metrics") or {}
            for name, value in (metrics.get("phases") or {}).items():
                phases[name] += float(value)
            if metrics.get("sets_per_round"):
                sets.append(int(metrics["sets_per_round"]))
        wall = float(task.get("wall_s") or 0.0)
        walls.append(wall)
        top = ", ".join(f"{name[:-2] if name.endswith('_s') else name} {value:.1f}"
                        for name, value in phases.most_common(5))
        rows.append((task.get("task_id", "?"), wall, seconds(task.get("baseline_compile")),
                     seconds(task.get("candidate_compile")), checks, timing, top))
    print("| task | wall s | compile baseline s | compile candidate s | checks s | timing s | timing's phases (s) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for task, wall, base, cand, checks, timing, top in rows:
        print(f"| {task} | {wall:.1f} | {base:.1f} | {cand:.1f} | {checks:.1f} | {timing:.1f} | {top} |")
    if walls:
        print(f"\nmedian wall per task: {statistics.median(walls):.1f} s over {len(walls)} task(s)")


if __name__ == "__main__":
    main(sys.argv)
