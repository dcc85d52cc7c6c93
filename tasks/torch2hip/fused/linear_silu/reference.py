"""y = silu(x @ W^T + b): an fp16 Linear layer followed by SiLU."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, dtype=torch.float16)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.linear(x))


def get_init_inputs(config):
    return [int(config["K"]), int(config["N"])]


def get_inputs(config, generator):
    x = torch.randn(int(config["M"]), int(config["K"]), generator=generator)
    return [x.to(torch.float16)]
