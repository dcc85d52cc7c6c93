import torch


def reference(x, rows, cols, **_):
    return torch.softmax(x, dim=1)
