import math

import torch


def reference(x, dy, **_):
    k = math.sqrt(2.0 / math.pi)
    c = 0.044715
    t = torch.tanh(k * (x + c * x ** 3))
    grad = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * c * x * x)
    return dy * grad
