import torch


def reference(x, rows, cols, k, **_):
    return torch.topk(x, k, dim=1, largest=True, sorted=True).values
