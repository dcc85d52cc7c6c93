import torch


def reference(x, residual, w, b, eps, **_):
    h = x + residual
    mean = h.mean(dim=1, keepdim=True)
    var = (h - mean).pow(2).mean(dim=1, keepdim=True)
    y = (h - mean) / torch.sqrt(var + eps) * w + b
    return h, y
