"""loss = nn.CrossEntropyLoss() (mean over the batch) of fp32 logits [batch, classes] and int64 targets."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.CrossEntropyLoss()

    def forward(self, logits, target):
        return self.loss(logits, target)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    batch, classes = int(config["batch"]), int(config["classes"])
    logits = torch.randn(batch, classes, generator=generator) * 2.0
    target = torch.randint(0, classes, (batch,), generator=generator, dtype=torch.int64)
    return [logits, target]
