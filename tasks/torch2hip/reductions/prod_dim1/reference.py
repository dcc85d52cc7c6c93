"""y = torch.prod(x, dim=1): the product of every row of an fp32 [rows, cols] matrix whose
values are close to 1."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.prod(x, dim=1)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # 1 + noise of standard deviation 1 / sqrt(cols): the log of a row's
    # product has a spread of about 1, so products stay finite and O(0.05..20)
    # at any row length. Noise is capped at +-0.5 so every factor is positive.
    std = 1.0 / math.sqrt(cols)
    noise = (torch.randn(rows, cols, generator=generator) * std).clamp(-0.5, 0.5)
    return [1.0 + noise]
