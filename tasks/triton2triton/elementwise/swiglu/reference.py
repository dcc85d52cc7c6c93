import torch


def reference(a, b, rows, cols, **_):
    return torch.nn.functional.silu(a) * b
