import torch


def reference(x, eps, **_):
    # x arrives as float64 (an exact copy of the fp32 input).
    mean = x.mean(dim=1, keepdim=True)
    var = (x - mean).pow(2).mean(dim=1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps)
