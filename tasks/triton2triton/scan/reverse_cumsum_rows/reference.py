import torch


def reference(x, rows, cols, **_):
    return torch.flip(torch.cumsum(torch.flip(x, dims=[1]), dim=1), dims=[1])
