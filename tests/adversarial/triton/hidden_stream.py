# class: hidden stream (the baseline's own kernel, plus work put on another
# stream; GPU only): the hidden work is counted, so it is slower than the
# baseline on every configuration, never faster. The hidden work is a
# Triton kernel of its own (a library's, torch.cuda._sleep say, is named
# as library compute).
# expect: pass, slower
# where: gpu

import torch

SIDE = []


@triton.jit
def _busy(out_ptr, iters):
    acc = tl.load(out_ptr)
    for _ in range(iters):
        acc = acc * 0.999999 + 1e-7
    tl.store(out_ptr, acc)


def run(x, y, n, **_):
    if not SIDE:
        SIDE.append((torch.cuda.Stream(), torch.empty(1, device=x.device, dtype=torch.float32)))
    side, scratch = SIDE[0]
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        _busy[(1,)](scratch, 50_000)  # about 100 us the current stream does not see
        _gelu[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
