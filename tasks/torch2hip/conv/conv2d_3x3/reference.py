"""A 3x3 convolution with bias on an NCHW fp32 tensor: nn.Conv2d(C, K, 3, stride, padding=1)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, stride):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_init_inputs(config):
    return [int(config["C"]), int(config["K"]), int(config["stride"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
