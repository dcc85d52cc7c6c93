"""Adaptive 1-D max pooling of an fp32 [N, C, L] tensor to a fixed length:
nn.AdaptiveMaxPool1d(out_len) (values only)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, out_len):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool1d(out_len)

    def forward(self, x):
        return self.pool(x)


def get_init_inputs(config):
    return [int(config["out_len"])]


def get_inputs(config, generator):
    shape = (int(config["N"]), int(config["C"]), int(config["L"]))
    return [torch.randn(*shape, generator=generator)]
