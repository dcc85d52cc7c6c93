import torch


def reference(x, **_):
    return x.abs().sum(dim=1)
