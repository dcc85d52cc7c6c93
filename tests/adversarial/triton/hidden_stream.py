# class: hidden stream (the baseline's own kernel, plus work put on another
# stream; GPU only): the hidden work is counted, so it is slower than the
# baseline on every configuration, never faster
# expect: pass, slower
# where: gpu
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


import torch

SIDE = []


def run(x, y, n, **_):
    if not SIDE:
        SIDE.append(torch.cuda.Stream())
    SIDE[0].wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(SIDE[0]):
        torch.cuda._sleep(200_000)  # about 100 us the current stream does not see
        _gelu[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)