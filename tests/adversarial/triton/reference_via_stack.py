# class: expected outputs read through the call stack
# expect: NaN|library compute|no Triton kernel
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


import sys

import torch


def run(x, y, n, **_):
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, dict):
                for v in value.values():
                    if isinstance(v, torch.Tensor) and v.dtype == torch.float64 \
                            and v.shape == y.shape:
                        y.copy_(v.half())
                        return
        frame = frame.f_back
    # Nothing worth stealing here: leave the output unwritten.