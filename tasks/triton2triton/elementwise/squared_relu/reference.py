import torch


def reference(x, **_):
    return torch.relu(x) ** 2
