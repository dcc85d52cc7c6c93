import math

import torch


def reference(a, b, bias, m, n, k, **_):
    v = a @ b + bias
    return 0.5 * v * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))
