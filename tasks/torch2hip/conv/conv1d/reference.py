"""A 1-D convolution with bias on an fp32 [N, C_in, L] tensor:
nn.Conv1d(C_in, C_out, kernel, stride=stride, padding=padding)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride,
                              padding=padding, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_init_inputs(config):
    return [int(config["C_in"]), int(config["C_out"]), int(config["kernel"]),
            int(config["stride"]), int(config["padding"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C_in"]), int(config["L"]))
    return [torch.randn(*shape, generator=generator)]
