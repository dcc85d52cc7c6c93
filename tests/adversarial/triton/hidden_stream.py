# class: hidden stream (the baseline's own kernel, plus work put on another
# stream; GPU only): the hidden work is counted, so it is slower than the
# baseline on every configuration, never faster
# expect: pass, slower
# where: gpu

import torch

SIDE = []


def run(x, y, n, **_):
    if not SIDE:
        SIDE.append(torch.cuda.Stream())
    SIDE[0].wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(SIDE[0]):
        torch.cuda._sleep(200_000)  # about 100 us the current stream does not see
        _gelu[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
