# class: exact when checked, less precise when timed (a cheaper path when
# its calls are captured for a timed round's graph; under the interpreter,
# past the checks' calls), inside twice the tolerance of the baseline's outputs
# that the timed rounds compare with, outside the tolerance of the reference
# (GPU only: on the CPU, triton_rounds_test.py times it)
# expect: wrong when timed
# where: gpu

import torch
import triton
import triton.language as tl

CALLS = [0]


@triton.jit
def _nudge(y_ptr, n, BLOCK: tl.constexpr):
    # 1.5 times the task's float16 tolerance (2e-3 + 2e-3 |y|) off.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(y_ptr + offs, (y + 1.5 * (2e-3 + 2e-3 * tl.abs(y))).to(tl.float16), mask=mask)


def run(x, y, n, **_):
    CALLS[0] += 1
    gelu(x, y, n)
    if torch.cuda.is_current_stream_capturing() if x.is_cuda else CALLS[0] > 8:
        _nudge[(triton.cdiv(n, 1024),)](y, n, BLOCK=1024)
