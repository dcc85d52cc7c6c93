import torch


def reference(x, **_):
    return torch.cumsum(x, dim=0)
