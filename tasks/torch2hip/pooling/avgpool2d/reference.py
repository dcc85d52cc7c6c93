"""2-D average pooling of an fp32 NCHW tensor: nn.AvgPool2d(kernel, stride, padding)
(count_include_pad=True, ceil_mode=False: the defaults)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_init_inputs(config):
    return [int(config["kernel"]), int(config["stride"]), int(config["padding"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
