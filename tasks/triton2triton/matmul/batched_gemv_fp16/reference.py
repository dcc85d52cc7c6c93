import torch


def reference(w, x, b, n, k, **_):
    # w and x arrive as float64.
    return torch.bmm(w, x.unsqueeze(-1)).squeeze(-1)
