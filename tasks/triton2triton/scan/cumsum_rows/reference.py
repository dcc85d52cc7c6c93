import torch


def reference(x, rows, cols, **_):
    return torch.cumsum(x, dim=1)
