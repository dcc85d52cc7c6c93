import torch


def reference(x, n, bins, **_):
    return torch.bincount(x.to(torch.int64), minlength=bins).to(torch.int32)
