"""C = A @ B in bf16 with A tall (M large) and B skinny (N small): many rows onto few outputs."""
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
    a = torch.randn(m, k, generator=generator).to(torch.bfloat16)
    # B is scaled by 1/sqrt(K) so that every entry of C is O(1) whatever K is.
    b = (torch.randn(k, n, generator=generator) * (1.0 / math.sqrt(k))).to(torch.bfloat16)
    return [a, b]
