# class: parent killed (its parent and every process it can reach,
# signalled): none is outside its own sandbox, so the evaluation goes on
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
import signal


def run(x, y, n, **_):
    gelu(x, y, n)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(os.getppid(), sig)
        except OSError:
            pass
    for pid in (1, -1):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass