# class: fallback to a torch op when the kernel raises
# expect: library compute

import torch


def run(x, y, n, **_):
    try:
        _gelu[(1,)](x, y, n, BLOCK=1000)  # not a power of two: Triton refuses
    except Exception:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
