"""loss = nn.MSELoss() (mean of squared differences) of two fp32 [rows, cols] tensors."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def forward(self, prediction, target):
        return self.loss(prediction, target)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    prediction = torch.randn(rows, cols, generator=generator)
    target = torch.randn(rows, cols, generator=generator)
    return [prediction, target]
