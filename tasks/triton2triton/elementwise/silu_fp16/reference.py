import torch


def reference(x, **_):
    return x * torch.sigmoid(x)
