"""Batched matrix multiplication C[b] = A[b] @ B[b] in fp32 (torch.bmm)."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    batch, m, k, n = int(config["batch"]), int(config["M"]), int(config["K"]), int(config["N"])
    a = torch.randn(batch, m, k, generator=generator)
    # B is scaled by 1/sqrt(K) so that every entry of C is O(1) whatever K is.
    b = torch.randn(batch, k, n, generator=generator) * (1.0 / math.sqrt(k))
    return [a, b]
