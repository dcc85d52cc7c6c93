import torch


def reference(a, b, c, m, n, **_):
    return a[:, None] * b[None, :] + c
