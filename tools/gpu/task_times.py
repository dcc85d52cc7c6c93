"""Where each task's evaluation time went, from a run's report.json (or
report.json.gz): its wall time, both compile stages, the checks and their
phases (the HIP judge's: prepare, transfer, run, ...), the timing stages,
and the timing's phases summed over its configurations (the Triton
judge's: lend, capture, rounds, ...). Prints a markdown
table, then the median wall time per task; then, where the report has
them, each subject's compile stage's parts (its runner's start-up and
first call) and the timed rounds per configuration.

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
        phases, check_phases = collections.Counter(), collections.Counter()
        checks = timing = 0.0
        sets = []
        for config in task.get("configs", []):
            for subject in ("baseline_check", "candidate_check"):
                check = config.get(subject) or {}
                checks += seconds(check)
                for name, value in ((check.get("metrics") or {}).get("phases") or {}).items():
                    check_phases[name] += float(value)
            stage = (config.get("timing") or {}).get("stage") or {}
            timing += seconds(stage)
            metrics = stage.get("metrics") or {}
            for name, value in (metrics.get("phases") or {}).items():
                phases[name] += float(value)
            if metrics.get("sets_per_round"):
                sets.append(int(metrics["sets_per_round"]))
        wall = float(task.get("wall_s") or 0.0)
        walls.append(wall)
        rows.append((task.get("task_id", "?"), wall, seconds(task.get("baseline_compile")),
                     seconds(task.get("candidate_compile")), checks, top_phases(check_phases, 3), timing,
                     top_phases(phases, 5)))
    print("| task | wall s | compile baseline s | compile candidate s | checks s | checks' phases (s) "
          "| timing s | timing's phases (s) |")
    print("|---|---:|---:|---:|---:|---|---:|---|")
    for task, wall, base, cand, checks, check_top, timing, top in rows:
        print(f"| {task} | {wall:.1f} | {base:.1f} | {cand:.1f} | {checks:.1f} | {check_top} | {timing:.1f} | {top} |")
    if walls:
        print(f"\nmedian wall per task: {statistics.median(walls):.1f} s over {len(walls)} task(s)")
    first_launches(report)


def top_phases(phases, count):
    return ", ".join(f"{name[:-2] if name.endswith('_s') else name} {value:.1f}"
                     for name, value in phases.most_common(count))


def first_launches(report):
    """Where each subject's compile stage went (its metrics' "costs"): the
    load request, its runner's start-up as the runner timed it, and its
    first configuration's call with the runner's parts of it (Triton's
    compile, binaries loaded, launchers, the launch observer's report);
    then the timed rounds per configuration."""
    rows = []
    for task in report.get("tasks", []):
        for subject in ("baseline", "candidate"):
            costs = ((task.get(f"{subject}_compile") or {}).get("metrics") or {}).get("costs")
            if not costs:
                continue
            load, first = costs.get("load") or {}, costs.get("first_config") or {}
            runner = first.get("runner") or {}
            start = ", ".join(f"{k[:-2]} {v:.2f}" for k, v in load.items()
                              if k not in ("request_s", "observer_take_s"))  # (the load request's own)
            call = ", ".join(f"{k[:-2]} {v:.2f}" for k, v in runner.items())
            lend = ", ".join(f"{k[:-2]} {v:.2f}" for k, v in (first.get("lend") or {}).items())
            rows.append((task.get("task_id", "?"), subject, costs.get("load_s", 0.0), start,
                         first.get("lend_s", 0.0), lend, first.get("call_s", 0.0), call))
    if rows:
        print("\n| task | subject | load s | runner's start-up (s, its own clock) | first lend s | of it (s) "
              "| first call s | of it (s, the runner's clock) |")
        print("|---|---|---:|---|---:|---|---:|---|")
        for task, subject, load_s, start, lend_s, lend, call_s, call in rows:
            print(f"| {task} | {subject} | {load_s:.2f} | {start} | {lend_s:.2f} | {lend} | {call_s:.2f} | {call} |")
    # Where each runner's captures went (the timing's capture_costs): the
    # collection before, the capture of the calls, the chains' building.
    parts = {}
    for t in report.get("tasks", []):
        for c in t.get("configs", []):
            costs = (((c.get("timing") or {}).get("stage") or {}).get("metrics") or {}).get("capture_costs") or {}
            for subject_costs in costs.values():
                for k, v in (subject_costs or {}).items():
                    if k in ("collect_s", "captured_s", "chained_s", "request_s"):
                        parts.setdefault(k, []).append(v)
    if parts:
        print("\ncaptures (s per subject and configuration): " + ", ".join(
            f"{k[:-2]} median {statistics.median(v):.3f} max {max(v):.3f} sum {sum(v):.1f}"
            for k, v in sorted(parts.items())))
    counts = [int(((c.get("timing") or {}).get("stage") or {}).get("metrics", {}).get("rounds") or 0)
              for t in report.get("tasks", []) for c in t.get("configs", [])]
    counts = [n for n in counts if n]
    if counts:
        print(f"\ntimed rounds per configuration: median {statistics.median(counts):g}, "
              f"{min(counts)}..{max(counts)} over {len(counts)} configuration(s)")


if __name__ == "__main__":
    main(sys.argv)
