"""y = hardtanh(x * sigmoid(x), min_val, max_val): Swish followed by HardTanh, fp32."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, min_val, max_val):
        super().__init__()
        self.min_val = float(min_val)
        self.max_val = float(max_val)

    def forward(self, x):
        return F.hardtanh(x * torch.sigmoid(x), min_val=self.min_val, max_val=self.max_val)


def get_init_inputs(config):
    return [config["min_val"], config["max_val"]]


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    return [torch.randn(rows, cols, generator=generator) * 3.0]
