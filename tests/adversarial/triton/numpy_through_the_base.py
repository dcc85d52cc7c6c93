# class: host compute: Tensor.numpy() called through the class that defines
# it, torch._C.TensorBase (a built-in type, whose attributes cannot be
# set), past a wrapper put in torch.Tensor alone; numpy computes the gelu
# on the lent memory in place; a Triton kernel launched on one element,
# for show
# expect: host compute

import numpy
import torch


def run(x, y, n, **_):
    base = torch._C.TensorBase
    xa, ya = base.numpy(x), base.numpy(y)
    v = xa[:n].astype(numpy.float32)
    ya[:n] = 0.5 * v * (1.0 + numpy.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    gelu(x, y, min(n, 1))
