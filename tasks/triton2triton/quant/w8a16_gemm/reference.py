import torch


def reference(x, w, scale, m, n, k, **_):
    # x and scale arrive as float64, w as int8.
    return (x @ w.to(torch.float64).t()) * scale
