"""y = nn.GLU(dim=-1)(x) = a * sigmoid(b), where a and b are the first and second halves
of each row of an fp32 [rows, 2 * d] matrix."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.GLU(dim=-1)

    def forward(self, x):
        return self.act(x)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, d = int(config["rows"]), int(config["d"])
    return [torch.randn(rows, 2 * d, generator=generator) * 2.0]
