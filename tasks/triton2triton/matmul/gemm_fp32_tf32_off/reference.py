import torch


def reference(a, b, m, n, k, **_):
    return a @ b
