import torch


def reference(x, idx, rows, cols, k, **_):
    return torch.take_along_dim(x, idx, dim=1)
