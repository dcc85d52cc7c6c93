# class: exact when checked, less precise when timed (a cheaper path after
# the checks' calls), inside twice the tolerance of the baseline's outputs
# that the timed rounds compare with, outside the tolerance of the reference
# (GPU only: on the CPU, triton_rounds_test.py times it)
# expect: wrong when timed
# where: gpu

import triton
import triton.language as tl

CALLS = [0]


@triton.jit
def _sloppy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    y = 0.5 * x * (1.0 + t)
    # 1.5 times the task's float16 tolerance (2e-3 + 2e-3 |y|) off.
    tl.store(y_ptr + offs, (y + 1.5 * (2e-3 + 2e-3 * tl.abs(y))).to(tl.float16), mask=mask)


def run(x, y, n, **_):
    CALLS[0] += 1
    if CALLS[0] <= 8:
        gelu(x, y, n)
        return
    _sloppy[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
