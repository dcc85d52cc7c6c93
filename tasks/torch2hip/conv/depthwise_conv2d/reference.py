"""A depthwise k x k convolution with bias ('same' padding) on an NCHW fp32 tensor:
nn.Conv2d(C, C, k, padding=k // 2, groups=C)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2,
                              groups=channels)

    def forward(self, x):
        return self.conv(x)


def get_init_inputs(config):
    return [int(config["C"]), int(config["k"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
