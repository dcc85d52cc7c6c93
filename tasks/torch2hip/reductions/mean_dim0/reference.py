"""y = torch.mean(x, dim=0): the mean of every column of an fp32 [rows, cols] matrix,
a reduction over the strided (leading) dimension."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.mean(x, dim=0)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    return [torch.randn(rows, cols, generator=generator)]
