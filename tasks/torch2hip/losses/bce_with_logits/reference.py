"""loss = nn.BCEWithLogitsLoss() (mean reduction) of fp32 [rows, cols] logits against
{0, 1} fp32 targets."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.BCEWithLogitsLoss(reduction="mean")

    def forward(self, logits, target):
        return self.loss(logits, target)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    rows, cols = int(config["rows"]), int(config["cols"])
    # Logits of both signs, some large (where a naive log(sigmoid) overflows).
    logits = torch.randn(rows, cols, generator=generator) * 4.0
    target = (torch.rand(rows, cols, generator=generator) < 0.5).to(torch.float32)
    return [logits, target]
