import torch


def reference(x, **_):
    x = x.to(torch.int64)
    # y[i] = x[0] + ... + x[i - 1], y[0] = 0.
    return torch.cumsum(x, dim=0) - x
