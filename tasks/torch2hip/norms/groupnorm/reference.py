"""GroupNorm on an NCHW fp32 tensor: nn.GroupNorm(G, C, eps)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_groups, channels, eps):
        super().__init__()
        self.norm = nn.GroupNorm(num_groups, channels, eps=eps)
        # Non-trivial affine parameters (the default is weight = 1, bias = 0).
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.norm.bias.copy_(0.5 * torch.randn(channels))

    def forward(self, x):
        return self.norm(x)


def get_init_inputs(config):
    return [int(config["G"]), int(config["C"]), float(config["eps"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
