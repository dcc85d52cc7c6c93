"""A 1-D transposed convolution with bias on an fp32 [N, C_in, L] tensor:
nn.ConvTranspose1d(C_in, C_out, kernel, stride=stride) (padding 0, output_padding 0,
dilation 1, groups 1)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super().__init__()
        self.conv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                       bias=True)

    def forward(self, x):
        return self.conv(x)


def get_init_inputs(config):
    return [int(config["C_in"]), int(config["C_out"]), int(config["kernel"]),
            int(config["stride"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C_in"]), int(config["L"]))
    return [torch.randn(*shape, generator=generator)]
