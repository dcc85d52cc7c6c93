"""(var, mean) = torch.var_mean(x, dim=-1) for an fp32 [rows, cols] matrix: the unbiased
(divide by cols - 1) variance and the mean of every row, returned as two tensors."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.var_mean(x, dim=-1)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # Rows with their own offset (in [-2, 2)) and spread (in [0.5, 2)), so
    # neither statistic is trivially 0 or 1.
    offset = torch.rand(rows, 1, generator=generator) * 4.0 - 2.0
    scale = torch.rand(rows, 1, generator=generator) * 1.5 + 0.5
    return [torch.randn(rows, cols, generator=generator) * scale + offset]
