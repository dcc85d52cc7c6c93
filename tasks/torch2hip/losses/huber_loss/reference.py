"""loss = nn.HuberLoss(delta=delta) (mean reduction) of two fp32 [rows, cols] tensors."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, delta):
        super().__init__()
        self.loss = nn.HuberLoss(reduction="mean", delta=float(delta))

    def forward(self, prediction, target):
        return self.loss(prediction, target)


def get_init_inputs(config):
    return [float(config["delta"])]


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    target = torch.randn(rows, cols, generator=generator)
    # Predictions near the target, with errors on both sides of delta.
    prediction = target + torch.randn(rows, cols, generator=generator) * 1.5
    return [prediction, target]
