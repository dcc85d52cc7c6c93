"""y = relu(x @ W^T + b): a Linear layer followed by ReLU (KernelBench level 2 style)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_init_inputs(config):
    return [config["K"], config["N"]]


def get_inputs(config, generator):
    return [torch.randn(config["M"], config["K"], generator=generator)]
