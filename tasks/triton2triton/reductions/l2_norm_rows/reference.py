import torch


def reference(x, rows, cols, **_):
    return torch.sqrt((x * x).sum(dim=1))
