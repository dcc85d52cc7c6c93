import torch


def reference(x, **_):
    return x * torch.sigmoid(1.702 * x)
