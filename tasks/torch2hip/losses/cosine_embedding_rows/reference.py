"""d = 1 - F.cosine_similarity(a, b, dim=1): the cosine distance between matching rows of
two fp32 [rows, cols] matrices, an fp32 [rows] vector."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return 1.0 - F.cosine_similarity(a, b, dim=1, eps=1e-8)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # b is correlated with a by a per-row factor in [-1, 1) plus noise, so the
    # distances spread over (0, 2); rows have their own scale.
    a = torch.randn(rows, cols, generator=generator)
    rho = torch.rand(rows, 1, generator=generator) * 2.0 - 1.0
    b = rho * a + 0.5 * torch.randn(rows, cols, generator=generator)
    scale = torch.rand(rows, 1, generator=generator) * 3.0 + 0.1
    return [a * scale, b]
