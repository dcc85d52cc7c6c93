"""y = relu(x @ W + b) in fp32, with W [K, N] and b [N] parameters of the module
(a GEMM with a bias-add and ReLU epilogue)."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        # W is scaled by 1/sqrt(K) so that every pre-activation is O(1) whatever K is.
        self.weight = nn.Parameter(torch.randn(in_features, out_features) / math.sqrt(in_features))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.5)

    def forward(self, x):
        return torch.relu(x @ self.weight + self.bias)


def get_init_inputs(config):
    return [int(config["K"]), int(config["N"])]


def get_inputs(config, generator):
    return [torch.randn(int(config["M"]), int(config["K"]), generator=generator)]
