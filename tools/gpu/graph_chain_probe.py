"""Where does the time of a round of many short calls go? (The Triton
judge's graph rounds: one CUDA graph captured per call, chained with
arena_buffers.GraphChain, replayed as two launches with a round trip to
the judge between them, timed on the judge's clock.)

A versus A on calls under 10 us is outside 2% far more often than on
longer ones, with rounds spread 0.6-1.4 around their median. This probe
runs two processes, P and Q, as the judge runs two runners: each captures
the task's own gelu kernel on SETS sets of N elements, one graph a call,
chains them as the runner does (a first part of a secret length, then
the rest), and runs a round whenever the parent says so, in turns. For
every round it reports the wall time from before the first launch to the
end of the synchronize (what the judge's clock sees, less its round
trip), the GPU's own time between two events around the launches, and
the host time each cuGraphLaunch took. Variants:

  plain     the chains as the runner makes them
  uploaded  each chain given to cuGraphUpload once, after it is made
  onechain  the calls as one chain, launched once (no split)

and, after a variant's name, what else is as the arena has it:

  +judge    the child tells the parent where the first part ends and
            waits for its "go" (the judge's round trip), and the wall time
            is the parent's, from its request to the child's reply
  +cupti    the child runs with the runner's launch observer subscribed
            (libarena_launches.so, CUPTI's callbacks)
  +sub, +cbgraph, +cblaunch, +cbmem
            a CUPTI subscriber of the probe's own (a callback that does
            nothing) with no callback on, with cuGraphLaunch's on, with
            cuLaunchKernel's, or with cuMemHostAlloc's and
            cuStreamWaitValue32's (which of the observer's turns graphs slow)
  +subafter, +unsub, +subunsub, +unsubeach, +unsublaunch
            the probe's subscriber made only once the chains are made;
            made at the start and let go of once the chains are made;
            made and let go of at the start; let go of before each round's
            launches and made again after its synchronize; let go of
            before each launch and made again as it returns
  +gapMS    the parent waits MS milliseconds between rounds (the judge's
            fill, verification and wait for an idle GPU)
  +tenth    the first part is a tenth of the calls, the least the runner
            draws
  +stop     both children are stopped (SIGSTOP) between rounds; the one
            timed next is resumed and woken by an empty round trip first

    python3 tools/gpu/graph_chain_probe.py [ROUNDS] [N:SETS ...] [VARIANT ...]

Prints a table (markdown) last.
"""

import ctypes
import importlib.util
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "plugins", "common", "python"))

TASK_KERNEL = os.path.join(HERE, "..", "..", "tasks", "triton2triton", "elementwise", "gelu", "kernel.py")
VARIANTS = ("plain", "uploaded", "onechain")
GAP_S = 60e-6  # the judge's "go", about a round trip
# CUPTI's driver-API callback ids (cupti_driver_cbid.h, CUDA 12 and 13).
_DRIVER_API = 1
_CALLBACKS = {"sub": (), "cbgraph": (514, 515), "cblaunch": (307, 442, 652), "cbmem": (39, 458)}


def child(n, sets, variant):
    if "+cupti" in variant:
        lib = ctypes.CDLL(os.path.join(HERE, "..", "..", "plugins", "common", "python", "libarena_launches.so"))
        lib.arena_launches_error.restype = ctypes.c_char_p
        if lib.arena_launches_start() != 0:
            raise SystemExit("CUPTI: " + lib.arena_launches_error().decode())
    import torch
    from arena_buffers import GraphChain
    mods = variant.split("+")
    kinds = [m for m in mods if m in _CALLBACKS] or \
        (["sub"] if {"subafter", "unsub", "subunsub", "unsubeach", "unsublaunch"} & set(mods) else [])
    cupti = sub = None
    if kinds:
        for name in ("libcupti.so.13", "libcupti.so.12", "libcupti.so"):
            try:
                cupti = ctypes.CDLL(name)
                break
            except OSError:
                pass
        if cupti is None:
            raise SystemExit("CUPTI cannot be loaded")
        callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p)(
            lambda *_: None)
        child.callback = callback  # (kept alive)
        sub = ctypes.c_void_p()

        def subscribe():
            if cupti.cuptiSubscribe(ctypes.byref(sub), callback, None) != 0:
                raise SystemExit("CUPTI refused a subscriber")
            for kind in kinds:
                for cbid in _CALLBACKS[kind]:
                    if cupti.cuptiEnableCallback(1, sub, _DRIVER_API, cbid) != 0:
                        raise SystemExit(f"CUPTI refused callback {cbid}")

        def unsubscribe():
            if cupti.cuptiUnsubscribe(sub) != 0:
                raise SystemExit("CUPTI refused to let a subscriber go")
        if "subafter" not in mods:
            subscribe()
        if "subunsub" in mods:
            unsubscribe()
    spec = importlib.util.spec_from_file_location("gelu_kernel", TASK_KERNEL)
    task = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(task)
    torch.cuda.init()
    x = torch.randn(sets, n, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for k in range(2):
            task.run(x[k], y[k], n)
    torch.cuda.synchronize()
    pool = torch.cuda.graph_pool_handle()
    pieces = []
    with torch.cuda.stream(stream):
        for k in range(sets):
            g = torch.cuda.CUDAGraph(keep_graph=True)
            g.capture_begin(pool=pool)
            task.run(x[k], y[k], n)
            g.capture_end()
            pieces.append(g)
    torch.cuda.synchronize()
    handles = [p.raw_cuda_graph() for p in pieces]
    chains = GraphChain()
    at = sets // 10 if "+tenth" in variant else sets // 10 + random.randrange(max(1, sets - 1 - sets // 10))
    made = {"plain": (chains.chain(handles[:at + 1]), chains.chain(handles[at + 1:])),
            "uploaded": (chains.chain(handles[:at + 1]), chains.chain(handles[at + 1:])),
            "onechain": (chains.chain(handles), None)}
    s = torch.cuda.current_stream().cuda_stream
    for exe in made["uploaded"]:
        chains._check("cuGraphUpload", ctypes.c_void_p(exe), ctypes.c_void_p(s))
    torch.cuda.synchronize()
    if "subafter" in mods:
        subscribe()
    if "unsub" in mods:
        unsubscribe()
    each = "unsubeach" in mods
    around = "unsublaunch" in mods

    def launch(exe):
        if around:
            unsubscribe()
        chains.launch(exe, s)
        if around:
            subscribe()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    print("ready", flush=True)
    judged = "+judge" in variant
    for line in sys.stdin:
        if line.strip() == "empty":
            print("empty", flush=True)
            continue
        first, rest = made[variant.split("+")[0]]
        torch.cuda.synchronize()
        if each:
            unsubscribe()
        t0 = time.perf_counter()
        start.record()
        launch(first)
        t1 = time.perf_counter()
        launch2 = 0.0
        if rest and judged:
            print("split", flush=True)
            sys.stdin.readline()
        elif rest:
            while time.perf_counter() - t1 < GAP_S:
                pass
        if rest:
            t2 = time.perf_counter()
            launch(rest)
            launch2 = time.perf_counter() - t2
        end.record()
        torch.cuda.synchronize()
        wall = time.perf_counter() - t0
        if each:
            subscribe()
        print(json.dumps({"wall_us": wall * 1e6 / sets, "gpu_us": start.elapsed_time(end) * 1e3 / sets,
                          "launch1_us": (t1 - t0) * 1e6, "launch2_us": launch2 * 1e6}), flush=True)


def main():
    args = sys.argv[1:]
    rounds = int(args.pop(0)) if args and args[0].isdigit() else 30
    configs = [tuple(int(v) for v in a.split(":")) for a in args if ":" in a] or [(4096, 4096), (1048576, 553)]
    variants = [a for a in args if ":" not in a] or list(VARIANTS)
    print("date:", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip())
    rows = []
    for n, sets in configs:
        for variant in variants:
            procs = {}
            for name in "PQ":
                procs[name] = subprocess.Popen([sys.executable, __file__, "--child", str(n), str(sets), variant],
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for p in procs.values():
                if p.stdout.readline().strip() != "ready":
                    raise SystemExit("a child did not start")
            gap = next((float(m[3:]) / 1e3 for m in variant.split("+") if m.startswith("gap")), 0.0)
            got = {name: [] for name in "PQ"}
            for r in range(rounds + 1):
                for name in ("PQ" if r % 2 == 0 else "QP"):
                    time.sleep(gap)
                    p = procs[name]
                    if "+stop" in variant:
                        for q in procs.values():
                            os.kill(q.pid, signal.SIGSTOP)
                        os.kill(p.pid, signal.SIGCONT)
                        p.stdin.write("empty\n")
                        p.stdin.flush()
                        p.stdout.readline()
                    t0 = time.perf_counter()
                    p.stdin.write("round\n")
                    p.stdin.flush()
                    line = p.stdout.readline()
                    if line.strip() == "split":
                        p.stdin.write("go\n")
                        p.stdin.flush()
                        line = p.stdout.readline()
                    wall = time.perf_counter() - t0
                    got[name].append(json.loads(line))
                    if "+judge" in variant:
                        got[name][-1]["wall_us"] = wall * 1e6 / sets
            for name in "PQ":
                del got[name][0]  # warm-up
            ratio = {k: [a[k] / b[k] for a, b in zip(got["P"], got["Q"])] for k in ("wall_us", "gpu_us")}
            med = {k: statistics.median(v[k] for v in got["P"] + got["Q"])
                   for k in ("wall_us", "gpu_us", "launch1_us", "launch2_us")}
            rows.append((n, sets, variant, med, {k: (statistics.median(v), min(v), max(v))
                                                 for k, v in ratio.items()}))
            print(n, sets, variant, json.dumps(med), json.dumps(rows[-1][4]), flush=True)
            for p in procs.values():
                os.kill(p.pid, signal.SIGCONT)
                p.stdin.close()
                p.wait()
    print()
    print("| n | sets | variant | wall us/call | GPU us/call | launch 1 us | launch 2 us | "
          "wall P/Q median (min-max) | GPU P/Q median (min-max) |")
    print("|---:|---:|---|---:|---:|---:|---:|---|---|")
    for n, sets, variant, med, ratio in rows:
        w, g = ratio["wall_us"], ratio["gpu_us"]
        print(f"| {n} | {sets} | {variant} | {med['wall_us']:.2f} | {med['gpu_us']:.2f} | "
              f"{med['launch1_us']:.0f} | {med['launch2_us']:.0f} | "
              f"{w[0]:.3f} ({w[1]:.3f}-{w[2]:.3f}) | {g[0]:.3f} ({g[1]:.3f}-{g[2]:.3f}) |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        main()
