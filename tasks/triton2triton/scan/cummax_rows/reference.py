import torch


def reference(x, rows, cols, **_):
    return torch.cummax(x, dim=1).values
