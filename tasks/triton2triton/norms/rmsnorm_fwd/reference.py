import torch


def reference(x, w, eps, **_):
    return x / torch.sqrt(x.pow(2).mean(dim=1, keepdim=True) + eps) * w
