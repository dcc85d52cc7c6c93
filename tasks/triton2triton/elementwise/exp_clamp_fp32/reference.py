import torch


def reference(x, lo, hi, **_):
    return torch.exp(torch.clamp(x, min=lo, max=hi))
