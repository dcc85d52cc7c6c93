import torch


def reference(a, w1, w2, m, n, k, **_):
    return torch.nn.functional.silu(a @ w1) * (a @ w2)
