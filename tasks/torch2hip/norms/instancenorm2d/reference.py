"""InstanceNorm on an NCHW fp32 tensor with affine parameters: nn.InstanceNorm2d(C, eps, affine=True)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels, eps):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels, eps=eps, affine=True)
        # Non-trivial affine parameters (the default is weight = 1, bias = 0).
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.norm.bias.copy_(0.5 * torch.randn(channels))

    def forward(self, x):
        return self.norm(x)


def get_init_inputs(config):
    return [int(config["C"]), float(config["eps"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    # A per-plane offset and scale, so the statistics differ between planes.
    x = torch.randn(*shape, generator=generator)
    shift = 0.5 * torch.randn(shape[0], shape[1], 1, 1, generator=generator)
    scale = 0.5 + torch.rand(shape[0], shape[1], 1, 1, generator=generator)
    return [x * scale + shift]
