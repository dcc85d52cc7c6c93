import torch


def reference(cond, a, b, rows, cols, **_):
    return torch.where(cond.bool()[:, None], a, b)
