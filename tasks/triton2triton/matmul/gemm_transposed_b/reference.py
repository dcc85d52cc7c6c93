import torch


def reference(x, w, m, n, k, **_):
    return x @ w.t()
