import torch


def reference(pred, target, **_):
    return (pred - target).pow(2).mean(dim=1)
