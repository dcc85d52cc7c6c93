"""y = torch.nn.functional.normalize(x, p=2, dim=1, eps=eps): every row of an fp32
[rows, cols] matrix divided by max(its Euclidean norm, eps)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x):
        return F.normalize(x, p=2.0, dim=1, eps=self.eps)


def get_init_inputs(config):
    return [float(config["eps"])]


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # Rows with their own scale, spread over several orders of magnitude
    # (10^-3 to 10^1), so that with a large eps some rows are clamped.
    scale = torch.pow(10.0, torch.rand(rows, 1, generator=generator) * 4.0 - 3.0)
    return [torch.randn(rows, cols, generator=generator) * scale]
