"""y = log_softmax(x, dim=-1) over the rows of a bf16 matrix (bf16 in and out)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.log_softmax(x, dim=-1)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    x = torch.randn(rows, cols, generator=generator) * 2.0
    return [x.to(torch.bfloat16)]
