import torch


def reference(x, w, row_scale, m, n, k, **_):
    return row_scale[:, None] * (x @ w)
