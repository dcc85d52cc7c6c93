import torch


def reference(x, w, n, bins, **_):
    return torch.bincount(x.to(torch.int64), weights=w, minlength=bins)
