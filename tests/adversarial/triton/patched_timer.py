# class: patched timer (CUDA events made to report nothing)
# expect: tampering|immutable type

import torch


def run(x, y, n, **_):
    torch.cuda.Event.elapsed_time = lambda self, end: 1e-6
    gelu(x, y, n)
