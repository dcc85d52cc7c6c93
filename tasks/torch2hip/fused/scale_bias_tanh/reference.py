"""y = tanh(x * scale + bias) over an fp32 [N, C, L] tensor, with a learned scale and bias
per channel (module parameters of shape [C], broadcast over N and L)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        # Non-trivial values: a scale around 1 (some negative), a bias around 0.
        self.scale = nn.Parameter(1.0 + 0.5 * torch.randn(channels))
        self.bias = nn.Parameter(0.5 * torch.randn(channels))

    def forward(self, x):
        return torch.tanh(x * self.scale.view(1, -1, 1) + self.bias.view(1, -1, 1))


def get_init_inputs(config):
    return [int(config["C"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["L"]))
    return [torch.randn(*shape, generator=generator) * 1.5]
