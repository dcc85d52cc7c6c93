# class: CUPTI itself told to stop (through ctypes, on the CUPTI library the
# runner's launch observer loaded: its callbacks gone, nothing named) before
# library compute
# expect: tampering

import ctypes

import torch


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    for name in ("libcupti.so.13", "libcupti.so.12", "libcupti.so"):
        try:
            ctypes.CDLL(name).cuptiFinalize()
            break
        except OSError:
            continue
    y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
