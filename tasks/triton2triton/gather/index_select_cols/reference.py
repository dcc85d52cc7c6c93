import torch


def reference(x, idx, rows, cols, n, **_):
    return torch.index_select(x, 1, idx)
