# class: planted files (the runner writes where other evaluations read)
# expect: pass
import triton
import triton.language as tl


@triton.jit
def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t)).to(tl.float16), mask=mask)


def gelu(x, y, n):
    _gelu[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)


import os

PLANTED = False
for target in ("/workspace/kernel.py", "/workspace/planted.py", "/opt/arena/python/arena_runner.py",
               "/opt/arena/python/planted.py", "/usr/lib/planted", "/etc/planted"):
    try:
        with open(target, "a") as f:
            f.write("# planted\n")
        PLANTED = True
    except OSError:
        pass


def run(x, y, n, **_):
    gelu(x, y, n)
    if PLANTED:  # a write that got through shows as a wrong answer
        y.zero_()