"""Matrix-vector product y = W @ x in fp32 with x a [K, 1] column (KernelBench level 1 style)."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, w, x):
        return torch.matmul(w, x)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    m, k = int(config["M"]), int(config["K"])
    w = torch.randn(m, k, generator=generator)
    # x is scaled by 1/sqrt(K) so that every entry of y is O(1) whatever K is.
    x = torch.randn(k, 1, generator=generator) * (1.0 / math.sqrt(k))
    return [w, x]
