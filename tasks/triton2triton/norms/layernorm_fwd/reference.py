import torch


def reference(x, w, b, eps, **_):
    mean = x.mean(dim=1, keepdim=True)
    var = (x - mean).pow(2).mean(dim=1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b
