"""Where the first launch of a Triton kernel spends its time, in a fresh
process, on this machine's Triton: the imports, CUDA's initialisation,
Triton's compile (source to cubin) and, where this Triton builds a C
launcher for each kernel signature (its driver's compile_module_from_src),
that build; then the same in a second process whose Triton cache the
first one filled.

A task's compile stage costs each subject about 4 s on its first
configuration (docs/results); this tells which part of it a cache, or a
launcher built once per machine, would take away.

Usage: python3 tools/gpu/compile_costs.py   (prints a table; needs a GPU)
"""

import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = r'''
import json, sys, time
t0 = time.perf_counter()
import torch
t_torch = time.perf_counter()
import triton
import triton.language as tl
t_triton = time.perf_counter()
torch.zeros(1, device="cuda")
torch.cuda.synchronize()
t_cuda = time.perf_counter()

costs = {"compile": [], "launcher": []}
def timed(original, key):
    def wrapper(*a, **k):
        s = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            costs[key].append(time.perf_counter() - s)
    return wrapper
import triton.compiler.compiler as cc
original_compile = cc.compile
for m in list(sys.modules.values()):
    if getattr(m, "compile", None) is original_compile:
        m.compile = timed(original_compile, "compile")
try:
    import triton.backends.nvidia.driver as nv
    original_build = getattr(nv, "compile_module_from_src", None)
except ImportError:
    original_build = None
if original_build is not None:
    nv.compile_module_from_src = timed(original_build, "launcher")

@triton.jit
def gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + i, y, mask=m)

@triton.jit
def scale_rows(x_ptr, y_ptr, s, rows, cols, stride, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < cols
    x = tl.load(x_ptr + r * stride + c, mask=m)
    tl.store(y_ptr + r * stride + c, x * s, mask=m)

def launch(what):
    s = time.perf_counter()
    before = {k: len(v) for k, v in costs.items()}
    what()
    torch.cuda.synchronize()
    took = time.perf_counter() - s
    return {"s": took, **{k: sum(v[before[k]:]) for k, v in costs.items()}}

x = torch.randn(1 << 20, device="cuda")
y = torch.empty_like(x)
steps = {}
steps["gelu first"] = launch(lambda: gelu[(1024,)](x, y, x.numel(), BLOCK=1024))
steps["gelu again"] = launch(lambda: gelu[(1024,)](x, y, x.numel(), BLOCK=1024))
steps["gelu n odd"] = launch(lambda: gelu[(1024,)](x, y, x.numel() - 1, BLOCK=1024))
steps["gelu BLOCK 512"] = launch(lambda: gelu[(2048,)](x, y, x.numel(), BLOCK=512))
steps["scale_rows first"] = launch(lambda: scale_rows[(1024,)](x, y, 2.0, 1024, 1024, 1024, BLOCK=1024))
print(json.dumps({"imports": {"torch": t_torch - t0, "triton": t_triton - t_torch, "cuda init": t_cuda - t_triton},
                  "steps": steps, "launcher_per_signature": original_build is not None,
                  "triton": triton.__version__}))
'''


def child(cache):
    env = dict(os.environ, TRITON_CACHE_DIR=cache)
    # (@triton.jit needs a file; beside the cache, which need not exist yet)
    script = os.path.join(os.path.dirname(os.path.abspath(cache)), "compile_costs_child.py")
    with open(script, "w") as f:
        f.write(CHILD)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"child failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1]), wall


def main():
    with tempfile.TemporaryDirectory() as folder:
        cache = os.path.join(folder, "cache")
        runs = [("cold cache", *child(cache)), ("warm cache", *child(cache))]
    first = runs[0][1]
    print(f"Triton {first['triton']}; a C launcher built per kernel signature: "
          f"{'yes' if first['launcher_per_signature'] else 'no'}")
    print()
    print("| process | step | seconds | of it: Triton's compile | of it: launcher build |")
    print("|---|---|---:|---:|---:|")
    for name, result, wall in runs:
        for step, took in result["imports"].items():
            print(f"| {name} | import/init: {step} | {took:.2f} | | |")
        for step, c in result["steps"].items():
            print(f"| {name} | {step} | {c['s']:.3f} | {c['compile']:.3f} | {c['launcher']:.3f} |")
        print(f"| {name} | process wall | {wall:.2f} | | |")


if __name__ == "__main__":
    main()
