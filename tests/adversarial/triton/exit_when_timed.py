# class: right when checked, its runner ended where it would be timed slower
# than the baseline (the largest configurations), so that only those where
# it is faster are timed (GPU only: the CPU times nothing)
# expect: exited with status 4
# where: gpu

import os

import torch


def run(x, y, n, **_):
    if torch.cuda.is_current_stream_capturing() and n > (1 << 20):
        os._exit(4)
    gelu(x, y, n)
