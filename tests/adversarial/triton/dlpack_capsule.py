# class: host compute: the lent tensors handed to numpy through torch._C's
# own DLPack export (`torch._C._to_dlpack_versioned`, past the wrapper of
# Tensor.__dlpack__; a versioned capsule is writable in numpy); numpy
# computes the gelu in place; a Triton kernel launched on one element, for
# show
# expect: host compute

import numpy
import torch


class _Exported:
    def __init__(self, t):
        self.capsule, self.device = torch._C._to_dlpack_versioned(t), (1, 0)

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def run(x, y, n, **_):
    xa, ya = numpy.from_dlpack(_Exported(x)), numpy.from_dlpack(_Exported(y))
    v = xa[:n].astype(numpy.float32)
    ya[:n] = 0.5 * v * (1.0 + numpy.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    gelu(x, y, min(n, 1))
