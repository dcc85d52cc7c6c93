import torch


def reference(a, b, batch, m, n, k, **_):
    return torch.bmm(a, b)
