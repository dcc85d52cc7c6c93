import torch


def reference(x, a, b, base, m, n, k, r, scale, **_):
    # All inputs arrive as float64.
    return base + scale * ((x @ a) @ b)
