"""y = nn.ELU(alpha)(x), elementwise over an fp32 matrix."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.act = nn.ELU(alpha=float(alpha))

    def forward(self, x):
        return self.act(x)


def get_init_inputs(config):
    return [float(config["alpha"])]


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # Both signs, with negative values from near 0 (where exp(x) - 1 cancels)
    # to deep in the saturated tail.
    return [torch.randn(rows, cols, generator=generator) * 2.5]
