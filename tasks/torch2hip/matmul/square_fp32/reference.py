"""C = A @ B in fp32 for square and near-square matrices (KernelBench level 1 style)."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    m, k, n = int(config["M"]), int(config["K"]), int(config["N"])
    a = torch.randn(m, k, generator=generator)
    # B is scaled by 1/sqrt(K) so that every entry of C is O(1) whatever K is.
    b = torch.randn(k, n, generator=generator) * (1.0 / math.sqrt(k))
    return [a, b]
