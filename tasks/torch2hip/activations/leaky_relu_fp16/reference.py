"""y = nn.LeakyReLU(negative_slope)(x), elementwise over an fp16 matrix."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.act = nn.LeakyReLU(negative_slope=float(negative_slope))

    def forward(self, x):
        return self.act(x)


def get_init_inputs(config):
    return [float(config["negative_slope"])]


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    x = torch.randn(rows, cols, generator=generator) * 2.0
    return [x.to(torch.float16)]
