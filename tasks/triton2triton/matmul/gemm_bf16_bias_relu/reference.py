import torch


def reference(a, b, bias, m, n, k, **_):
    return torch.relu(a @ b + bias)
