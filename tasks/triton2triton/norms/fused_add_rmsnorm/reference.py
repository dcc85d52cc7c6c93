import torch


def reference(x, residual, w, eps, **_):
    h = x + residual
    y = h / torch.sqrt(h.pow(2).mean(dim=1, keepdim=True) + eps) * w
    return h, y
