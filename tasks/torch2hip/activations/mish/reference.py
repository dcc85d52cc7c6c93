"""y = Mish(x) = x * tanh(softplus(x)), elementwise over an fp32 matrix (nn.Mish)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mish = nn.Mish()

    def forward(self, x):
        return self.mish(x)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    return [torch.randn(rows, cols, generator=generator) * 3.0]
