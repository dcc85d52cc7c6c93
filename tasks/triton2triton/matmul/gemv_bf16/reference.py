import torch


def reference(w, x, n, k, **_):
    return w @ x
