import torch


def reference(x, rows, cols, **_):
    return torch.log_softmax(x, dim=1)
