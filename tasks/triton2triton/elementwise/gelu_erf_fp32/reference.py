import math

import torch


def reference(x, **_):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))
