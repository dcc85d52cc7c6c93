import math

import torch


def reference(x, bias, residual, rows, cols, **_):
    v = x + bias[None, :]
    return 0.5 * v * (1.0 + torch.erf(v / math.sqrt(2.0))) + residual
