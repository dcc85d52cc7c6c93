"""1-D max pooling of an fp32 [N, C, L] tensor: nn.MaxPool1d(kernel, stride, padding)
(dilation 1, ceil_mode=False, values only)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_init_inputs(config):
    return [int(config["kernel"]), int(config["stride"]), int(config["padding"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["L"]))
    return [torch.randn(*shape, generator=generator)]
