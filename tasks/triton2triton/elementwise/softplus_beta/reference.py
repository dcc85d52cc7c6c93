import torch


def reference(x, beta, threshold, **_):
    return torch.nn.functional.softplus(x, beta=beta, threshold=threshold)
