"""y = nn.Softsign()(x) = x / (1 + |x|), elementwise over an fp16 matrix."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.Softsign()

    def forward(self, x):
        return self.act(x)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    x = torch.randn(rows, cols, generator=generator) * 4.0
    return [x.to(torch.float16)]
