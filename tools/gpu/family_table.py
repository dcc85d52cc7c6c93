"""Turns an arena run report (arena report RUN --json) and the measured
ceilings into the tables a family's GPU issue asks for: per task and
configuration the baseline time and its place against the roofline, the
A-versus-A distribution of a noop run, compile and wall times.

  python3 tools/gpu/family_table.py report.json ceilings.json > table.md
"""

from collections import Counter
import json
import statistics
import sys


# Two timings within this fraction of each other are a tie (the arena's
# kNoiseBand, core/scoring.h).
BAND = 0.02


def median(v):
    return statistics.median(v) if v else float("nan")


def integrity_and_observation(report):
    """Every stage failed with an integrity finding ("task where: detail"),
    and how many checks each kind of launch observation watched."""
    findings, observed = [], {}
    for task in report["tasks"]:
        stages = [(s, task[s]) for s in ("baseline_compile", "candidate_compile")]
        for c in task["configs"]:
            stages += [(f"{c['name']} {s}", c[s]) for s in ("baseline_check", "candidate_check")]
            stages.append((f"{c['name']} timing", c["timing"]["stage"]))
            for s in ("baseline_check", "candidate_check"):
                how = (c[s].get("metrics") or {}).get("observation")
                if how is not None:
                    observed[how] = observed.get(how, 0) + 1
        for where, stage in stages:
            if (stage.get("metrics") or {}).get("integrity") or stage.get("detail", "").startswith("integrity"):
                findings.append(f"{task['task_id']} {where}: {stage['detail'][:120]}")
    return findings, observed


def main():
    report = json.load(open(sys.argv[1]))
    ceil = json.load(open(sys.argv[2]))
    # Ceilings measured before the best of three streams name the copy's.
    bw, fl = ceil.get("memory_bytes_per_s", ceil["copy_bytes_per_s"]), ceil["bf16_matmul_flops"]
    bw_name = "memory" if "memory_bytes_per_s" in ceil else "copy"
    rows, ratios, walls, compiles = [], [], [], []
    split = {"compile": 0.0, "checks": 0.0, "timing": 0.0}  # seconds over the family
    phases = Counter()  # the HIP worker's check phases, seconds over the family
    timing_phases = Counter()  # the judges' timing phases, seconds over the family
    drawn_by = Counter()  # Triton: how the timed rounds' inputs were drawn, configurations
    # Per subject (both judges report it), the longest wait for an idle GPU
    # and wake before a clock started, and the configurations' median ones,
    # in us.
    before_clock = {}
    round_parts = {}  # what: [baseline less candidate, us, per configuration]
    # Runners stopped for a round; the fewest threads a stop counted; the
    # most time on a CPU (us) a stopped runner was found to have run.
    stops = [0, float("inf"), 0.0]
    family = report["tasks"][0]["family"] if report["tasks"] else "?"
    nvcc = []  # hip families: the platform compiler's time per subject
    rtc = []  # the same, for subjects built by runtime compilation
    cache_hits = 0  # hip families: subjects served by the build cache
    compiled_rows = []  # torch2hip: eager, torch.compile and the candidate
    wrong = []
    for task in report["tasks"]:
        walls.append(task["wall_s"])
        # Outside the stages' own seconds (results stored since phases were).
        for k, name in (("harness_s", "workers started and round trips"),
                        ("open_s", "sessions opened"), ("stage_s", "files staged"),
                        ("close_s", "workers ended")):
            if k in (task.get("phases") or {}):
                split[name] = split.get(name, 0.0) + task["phases"][k]
        compiles.append(task["baseline_compile"]["seconds"])
        for subject in ("baseline_compile", "candidate_compile"):
            split["compile"] += task[subject]["seconds"]
            m = task[subject].get("metrics") or {}
            if "nvidia_compile_s" in m:
                (rtc if m.get("rtc") == "nvrtc+g++" else nvcc).append(m["nvidia_compile_s"])
            elif m.get("cache") == "hit":
                cache_hits += 1
        for c in task["configs"]:
            for subject in ("baseline_check", "candidate_check"):
                split["checks"] += c[subject]["seconds"]
                phases.update((c[subject].get("metrics") or {}).get("phases") or {})
                if c[subject]["status"] != "passed":
                    wrong.append(f"{task['task_id']} {c['name']} {subject}: "
                                 f"{c[subject]['status']} {c[subject]['detail'][:100]}")
            t = c["timing"]
            split["timing"] += t["stage"]["seconds"]
            timed_metrics = t["stage"].get("metrics") or {}
            timing_phases.update(timed_metrics.get("phases") or {})
            for subject, seen in (timed_metrics.get("before_clock") or {}).items():
                for what, v in seen.items():
                    before_clock.setdefault((subject, what), []).append((v["median"], v["max"]))
            parts = timed_metrics.get("round_parts") or {}
            for what in ("to_split_us", "after_go_us"):
                b, cand = (parts.get(s, {}).get(what) for s in ("baseline", "candidate"))
                if isinstance(b, (int, float)) and isinstance(cand, (int, float)):
                    round_parts.setdefault(what, []).append(b - cand)
            for subject, tally in (timed_metrics.get("stops") or {}).items():
                stops[0] += tally["stops"]
                if tally["stops"]:
                    stops[1] = min(stops[1], tally["fewest_threads_counted"])
                stops[2] = max(stops[2], tally.get("most_us_while_stopped", 0.0))
            if "inputs_drawn_by" in timed_metrics:
                drawn_by[timed_metrics["inputs_drawn_by"].split(" (")[0]] += 1
            if t["stage"]["status"] != "passed":
                rows.append((task["task_id"], c["name"], c["kind"], None, None, None, None,
                             t["stage"]["detail"][:60]))
                continue
            tb = median(t["baseline_us"])
            tc = median(t["candidate_us"])
            # As core/scoring does: interleaved rounds by the median of
            # their ratios (none if a round measured nothing), else the
            # ratio of the medians.
            pairs = list(zip(t["baseline_us"], t["candidate_us"]))
            if t.get("paired") and len(t["baseline_us"]) == len(t["candidate_us"]):
                if not all(x > 0 and y > 0 for x, y in pairs):
                    rows.append((task["task_id"], c["name"], c["kind"], None, None, None, None,
                                 "no speedup: a round measured as nothing"))
                    continue
                ratio = median([x / y for x, y in pairs])
            else:
                ratio = tb / tc
            ratios.append(ratio)
            bw_frac = c["bytes"] / (tb * 1e-6) / bw if c["bytes"] else 0.0
            fl_frac = c["flops"] / (tb * 1e-6) / fl if c["flops"] else 0.0
            compiled = (t["stage"].get("metrics") or {}).get("torch_compile_us")
            if compiled is not None:
                compiled_rows.append((task["task_id"], c["name"], c["kind"], tb, compiled, tc))
            rows.append((task["task_id"], c["name"], c["kind"], tb, bw_frac, fl_frac, ratio,
                         t["method"].split("+")[0]))
    noop = (report.get("run") or {}).get("agent", "noop") == "noop"
    # torch2hip's noop candidate is the shipped HIP against PyTorch eager.
    a_versus_a = noop and family != "torch2hip"
    print(f"# {family} on {ceil['device']}\n")
    print(f"Ceilings measured on this device by tools/gpu/ceilings.py: {bw_name} "
          f"{bw / 1e12:.2f} TB/s, bf16 matmul {fl / 1e12:.0f} TFLOP/s.\n")
    ratio_head = "A/A" if a_versus_a else "speedup"
    print(f"| task | config | kind | baseline us | of {bw_name} BW | of bf16 peak | {ratio_head} | method |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for r in rows:
        if r[3] is None:
            print(f"| {r[0]} | {r[1]} | {r[2]} | - | - | - | - | {r[7]} |")
        else:
            print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.2f} | {r[4] * 100:.1f}% | "
                  f"{r[5] * 100:.2f}% | {r[6]:.3f} | {r[7]} |")
    if compiled_rows:
        print("\nPyTorch eager, torch.compile (recorded beside eager) and the HIP candidate:\n")
        print("| task | config | kind | eager us | torch.compile us | candidate us | vs eager | vs compiled |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for task_id, name, kind, eager, comp, cand in compiled_rows:
            print(f"| {task_id} | {name} | {kind} | {eager:.2f} | {comp:.2f} | {cand:.2f} | "
                  f"{eager / cand:.3f} | {comp / cand:.3f} |")
    within = sum(1 for x in ratios if abs(x - 1) <= BAND)
    print()
    # No kernel moves bytes faster than a device copy or computes faster than
    # the matmul peak: a configuration above either has a cost model that
    # counts what the kernel does not do (bytes served from the L2), or a
    # ceiling measured too low. Either way its fraction cannot be trusted.
    above = [r for r in rows if r[3] is not None and (r[4] > 1.0 or r[5] > 1.0)]
    print(f"- configurations above a measured ceiling (cost model or ceiling to fix): {len(above)}")
    for r in above:
        print(f"  - {r[0]} {r[1]}: {r[4] * 100:.0f}% of {bw_name} bandwidth, {r[5] * 100:.1f}% of bf16 peak")
    subjects = "baseline or noop candidate" if noop else "baseline or candidate"
    print(f"- configurations checked wrong ({subjects}): {len(wrong)}")
    for w in wrong:
        print(f"  - {w}")
    findings, observed = integrity_and_observation(report)
    print(f"- stages failed with an integrity finding: {len(findings)}")
    for f in findings[:10]:
        print(f"  - {f}")
    if len(findings) > 10:
        print(f"  - ... and {len(findings) - 10} more")
    if observed:
        print("- launches observed in the checks by: " +
              ", ".join(f"{how} {n}" for how, n in sorted(observed.items())))
    if ratios:
        q = statistics.quantiles(ratios, n=20)
        label = "A versus A" if a_versus_a else "speedup (baseline / candidate)"
        print(f"- {label} over {len(ratios)} timed configurations: "
              f"{within}/{len(ratios)} = {100 * within / len(ratios):.1f}% within 1.00 +- {BAND:.2f}; "
              f"median {statistics.median(ratios):.4f}, 5th pct {q[0]:.4f}, 95th pct {q[-1]:.4f}, "
              f"min {min(ratios):.4f}, max {max(ratios):.4f}")
    if ratios and a_versus_a:
        # Launch-bound calls (under 10 us) apart: there the two processes'
        # launch costs, not the kernels, are compared (docs/methodology.md).
        for name, keep in (("of 10 us or more", lambda tb: tb >= 10), ("under 10 us", lambda tb: tb < 10)):
            part = [r[6] for r in rows if r[6] is not None and keep(r[3])]
            if part:
                inside = sum(1 for x in part if abs(x - 1) <= BAND)
                print(f"  - calls {name}: {inside}/{len(part)} = {100 * inside / len(part):.1f}%")
    if ratios and not a_versus_a:
        # Where the speedup holds: the configurations the agent tuned on
        # against those it never saw.
        by_kind = {}
        for r in rows:
            if r[6] is not None:
                by_kind.setdefault(r[2], []).append(r[6])
        print("- candidate more than 2% slower than the baseline, by kind: " + ", ".join(
            f"{kind} {sum(1 for x in v if x < 1 - BAND)} of {len(v)}"
            for kind, v in sorted(by_kind.items())) + "; more than 2% faster: " + ", ".join(
            f"{kind} {sum(1 for x in v if x > 1 + BAND)} of {len(v)}"
            for kind, v in sorted(by_kind.items())))
    print(f"- wall time per task evaluation: median {median(walls):.1f} s, "
          f"whole family {sum(walls):.0f} s over {len(walls)} tasks")
    total = sum(walls)
    if total > 0:
        print("- where the wall time went (whole family): " + ", ".join(
            f"{k} {v:.0f} s ({100 * v / total:.0f}%)" for k, v in split.items()) +
            f", other (agent, scheduling{'' if 'workers ended' in split else ', workers'}) "
            f"{max(total - sum(split.values()), 0):.0f} s")
    if phases:
        print("- the HIP worker's checks by phase: " + ", ".join(
            f"{k.removesuffix('_s')} {v:.0f} s" for k, v in sorted(phases.items())))
    if timing_phases:
        print("- timing by phase (the judges' own clocks): " + ", ".join(
            f"{k.removesuffix('_s')} {v:.1f} s" for k, v in sorted(timing_phases.items())))
    if drawn_by:
        print("- timed rounds' inputs drawn by: " + ", ".join(
            f"{k} {v}" for k, v in sorted(drawn_by.items())))
    if stops[0]:
        print(f"- runners stopped around rounds: {stops[0]}, each with at least {stops[1]} thread(s) whose "
              "times on a CPU were counted (0: the time on a CPU alone told); the most a stopped runner "
              f"ran on a CPU: {stops[2]:.1f} us (named past 500)")
    if before_clock:
        print("- before a subject's clock (us; median of the configurations' medians / longest): " +
              ", ".join(f"{subject} {what.removesuffix('_us')} {median([m for m, _ in v]):.0f} / "
                        f"{max(x for _, x in v):.0f}" for (subject, what), v in sorted(before_clock.items())))
    if round_parts:
        # A constant offset here, in every task, is the machine's, not the
        # subjects' (docs/results/round-parts-h100-2026-12-07/).
        print("- a round's parts, baseline less candidate (us; median over configurations / "
              "least / most): " + ", ".join(
                  f"{what.removesuffix('_us').replace('_', ' ')} {median(v):+.1f} / {min(v):+.1f} / {max(v):+.1f}"
                  for what, v in sorted(round_parts.items(), reverse=True)))
    if nvcc:
        print(f"- nvcc compile time per subject (kernel.hip to a shared library, "
              f"{len(nvcc)} compiles): median {median(nvcc):.2f} s, max {max(nvcc):.2f} s")
    if rtc:
        print(f"- hipRTC compile time per subject (NVRTC, then g++ for the host code, "
              f"{len(rtc)} compiles): median {median(rtc):.2f} s, max {max(rtc):.2f} s")
    if cache_hits:
        print(f"- subjects served by the build cache (same source, headers and compilers; "
              f"no nvcc run): {cache_hits}")
    if nvcc or rtc or cache_hits:
        if family != "torch2hip":
            print(f"- compile stage per task (nvcc or the build cache, plus the CPU reference "
                  f"once): median {median(compiles):.2f} s")
    else:
        print(f"- Triton compile time per task (baseline, every configuration's "
              f"specialization, first launches included): median {median(compiles):.1f} s, "
              f"max {max(compiles) if compiles else 0:.1f} s")


if __name__ == "__main__":
    main()
