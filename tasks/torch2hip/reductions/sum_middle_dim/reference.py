"""y = torch.sum(x, dim=1) for x of shape [B, D, N]: a reduction over a strided dimension, fp32."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    b, d, n = int(config["B"]), int(config["D"]), int(config["N"])
    return [torch.randn(b, d, n, generator=generator)]
