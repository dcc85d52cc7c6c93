"""Global average pooling of an NCHW fp32 tensor: nn.AdaptiveAvgPool2d(1), flattened to [N, C]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return torch.flatten(self.pool(x), 1)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["H"]), int(config["W"]))
    return [torch.randn(*shape, generator=generator)]
