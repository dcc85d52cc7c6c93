"""BatchNorm2d in inference mode (running statistics) on an NCHW fp32 tensor: nn.BatchNorm2d(C, eps).eval()."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels, eps):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=eps)
        # Non-trivial statistics and affine parameters (the defaults are
        # mean 0, variance 1, weight 1, bias 0).
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(channels))
            self.bn.running_var.copy_(0.25 + 1.5 * torch.rand(channels))
            self.bn.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.bn.bias.copy_(0.5 * torch.randn(channels))

    def forward(self, x):
        return self.bn(x)


def get_init_inputs(config):
    return [int(config["C"]), float(config["eps"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
