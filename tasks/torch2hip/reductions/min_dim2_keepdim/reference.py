"""y = torch.amin(x, dim=2, keepdim=True): the minimum over the last dimension of an
fp32 [B, M, N] tensor, kept as a dimension of size 1."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.amin(x, dim=2, keepdim=True)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    b, m, n = int(config["B"]), int(config["M"]), int(config["N"])
    return [torch.randn(b, m, n, generator=generator)]
