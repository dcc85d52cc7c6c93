# class: host compute: Tensor.map_ calls a Python function on every
# element pair of two tensors, in place, on the host (a CPU tensor's), with
# no op for the guard to see; the call launches a Triton kernel on one
# element, for show
# expect: host compute

import math


def _g(a, b):
    return 0.5 * b * (1.0 + math.tanh(0.7978845608 * (b + 0.044715 * b * b * b)))


def run(x, y, n, **_):
    y[:n].map_(x[:n], _g)
    gelu(x, y, min(n, 1))
