"""SwiGLU gate: y = silu(x[..., :d]) * x[..., d:] over an fp16 [rows, 2d] matrix."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        d = x.shape[-1] // 2
        return F.silu(x[..., :d]) * x[..., d:]


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, d = int(config["rows"]), int(config["d"])
    x = torch.randn(rows, 2 * d, generator=generator) * 2.0
    return [x.to(torch.float16)]
