#!/usr/bin/env python3
"""What torch.compile costs the PyTorch-to-HIP family, and what it measures.

The reference worker (plugins/torch2hip/harness/reference_worker.py) times
torch.compile beside eager, one configuration after the other in one
process: the first configuration pays the compiler's start, and the later
ones are compiled again or not, depending on how the compiler treats a new
module of new shapes. This script drives the worker itself (its `time`
request, mode "compiled") over a task's configurations in a fresh process
per setting, and prints per setting the process's start, each
configuration's wall time and the compiled module's median time:

  now        the worker as it is: each configuration compiled afresh for
             its own shapes (compile_for_shapes)
  before     as it was: torch.compile(model) one configuration after the
             other, so the second is compiled with dynamic sizes and the
             later ones reuse that kernel
  threads1   now, with TORCHINDUCTOR_COMPILE_THREADS=1: compiled in the
             process, no pool of compiling processes started
  warm       now again, on the compiler caches the first left

  Build machine, after tools/gpu/make_bundle.sh:
    python3 tools/gpu/torch_compile_cost.py prepare TASK_DIR... > .bundle/torch_compile_tasks.json
  GPU machine, from .bundle:
    python3 tools/gpu/torch_compile_cost.py run torch_compile_tasks.json OUT [TASK_ID...]

Prints a Markdown table last; each process's log under OUT.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SETTINGS = ["now", "before", "threads1", "warm"]


def prepare(task_dirs):
    import yaml  # the build machine's; the GPU side reads JSON only

    tasks = []
    for d in task_dirs:
        d = os.path.normpath(d)
        with open(os.path.join(d, "task.yaml")) as f:
            y = yaml.safe_load(f)
        interface = y["interface"]

        def tensors(ts):
            return [{"name": t["name"], "dtype": t["dtype"], "shape": t["shape"],
                     "init": t.get("init", "")} for t in ts]

        configs = []
        for kind in ("tuning", "heldout"):
            for params in y["configs"].get(kind, []):
                name = kind + "_" + "_".join(f"{k}{v}" for k, v in params.items())
                configs.append({"name": name, "params": params})
        section = y.get("torch2hip") or {}
        tasks.append({
            "id": os.path.relpath(d, os.path.dirname(os.path.dirname(os.path.dirname(d)))),
            "reference": os.path.join(d, section.get("reference", "reference.py")),
            "task": {"inputs": tensors(interface["inputs"]),
                     "outputs": tensors(interface["outputs"]),
                     "tolerances": y.get("tolerances") or {},
                     "timing": {"repetitions": 20, "graph_below_us": 20},
                     "family_section": section},
            "configs": configs,
        })
    json.dump(tasks, sys.stdout, indent=1)


def child(spec_path, index, setting, out_path):
    """One process: the worker started, then every configuration timed
    compiled, one after the other, as the family does."""
    t0 = time.perf_counter()
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "plugins", "torch2hip", "harness"))
    import torch
    import reference_worker

    if setting == "before":
        def compile_as_before(model, inputs):
            fn = torch.compile(model)
            with torch.no_grad():
                fn(*inputs)
            return fn

        reference_worker.compile_for_shapes = compile_as_before
    with open(spec_path) as f:
        spec = json.load(f)[index]
    w = reference_worker.Worker()
    w.init({"task": spec["task"], "reference": os.path.abspath(spec["reference"]), "device": "cuda",
            "data_dir": tempfile.mkdtemp()})
    rows = {"start_s": time.perf_counter() - t0, "configs": []}
    for cfg in spec["configs"]:
        row = {"name": cfg["name"]}
        for mode in ("eager", "compiled"):
            s = time.perf_counter()
            r = w.time({"config": cfg, "seed": 12345, "mode": mode, "repetitions": 20})
            row[mode + "_s"] = time.perf_counter() - s
            samples = r.get("samples_us") or []
            row[mode + "_us"] = statistics.median(samples) if samples else None
            row[mode + "_method"] = r["metrics"].get("method", r["detail"])
        rows["configs"].append(row)
        w.cache.clear()
    rows["total_s"] = time.perf_counter() - t0
    with open(out_path, "w") as f:
        json.dump(rows, f, indent=1)


def run(spec_path, out_dir, only):
    os.makedirs(out_dir, exist_ok=True)
    with open(spec_path) as f:
        tasks = json.load(f)
    table = []
    for i, t in enumerate(tasks):
        if only and t["id"] not in only:
            continue
        cache = tempfile.mkdtemp(prefix="inductor-")
        results = {}
        for setting in SETTINGS:
            env = dict(os.environ)
            # The first setting's caches are the warm one's; every other
            # setting starts cold.
            base = cache if setting in ("now", "warm") else tempfile.mkdtemp(prefix="inductor-")
            env["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(base, "inductor")
            env["TRITON_CACHE_DIR"] = os.path.join(base, "triton")
            if setting == "threads1":
                env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
            out = os.path.join(out_dir, f"{i}-{setting}.json")
            log = os.path.join(out_dir, f"{i}-{setting}.log")
            wall = time.perf_counter()
            with open(log, "w") as lf:
                rc = subprocess.call([sys.executable, __file__, "child", spec_path, str(i), setting, out],
                                     env=env, stdout=lf, stderr=subprocess.STDOUT)
            wall = time.perf_counter() - wall
            if rc != 0 or not os.path.exists(out):
                print(f"{t['id']} {setting}: failed (rc {rc}), see {log}", flush=True)
                continue
            with open(out) as f:
                results[setting] = json.load(f)
            r = results[setting]
            first = r["configs"][0]["compiled_s"] if r["configs"] else 0
            rest = sum(c["compiled_s"] for c in r["configs"][1:])
            print(f"{t['id']} {setting}: process {wall:.1f} s, start {r['start_s']:.1f} s, "
                  f"compiled first {first:.1f} s, rest {rest:.1f} s", flush=True)
            table.append((t["id"], setting, wall, r["start_s"], first, rest))
        # Per configuration: the compiled module's time, before against now.
        if "now" in results and "before" in results:
            print(f"\n{t['id']}: compiled median us, before / now (eager)")
            for d, s in zip(results["before"]["configs"], results["now"]["configs"]):
                ratio = (d["compiled_us"] / s["compiled_us"]) if d["compiled_us"] and s["compiled_us"] else float("nan")
                print(f"  {d['name']}: {d['compiled_us']} / {s['compiled_us']} ({d['eager_us']}) "
                      f"ratio {ratio:.3f}; {d['compiled_method']}")
    print("\n| task | setting | process s | worker start s | first config compiled s | other configs s |")
    print("|---|---|---:|---:|---:|---:|")
    for row in table:
        print("| %s | %s | %.1f | %.1f | %.1f | %.1f |" % row)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2:])
    elif sys.argv[1] == "child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        run(sys.argv[2], sys.argv[3], set(sys.argv[4:]))
