import torch


def reference(x, **_):
    return torch.sigmoid(x)
