import torch
import torch.nn as nn


class Model(nn.Module):
    """A 2-D convolution without bias, batch norm, then 2x2 max pooling."""

    def __init__(self, channels_in, channels_out, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels_in, channels_out, kernel_size, bias=False)
        self.norm = nn.BatchNorm2d(channels_out)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(self.norm(self.conv(x)))


batch_size = 16
channels_in = 8
channels_out = 32
height = 64
width = 64
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, channels_in, height, width)]


def get_init_inputs():
    return [channels_in, channels_out, kernel_size]
