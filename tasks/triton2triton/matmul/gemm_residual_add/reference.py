import torch


def reference(a, b, residual, m, n, k, **_):
    return a @ b + residual
