"""loss = nn.KLDivLoss(reduction='batchmean') of fp32 log-probabilities [batch, classes] against fp32 probabilities."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.KLDivLoss(reduction="batchmean")

    def forward(self, log_probs, target):
        return self.loss(log_probs, target)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    batch, classes = int(config["batch"]), int(config["classes"])
    # The input is a row-wise log-softmax, the target a row-wise softmax of
    # independent logits.
    log_probs = torch.log_softmax(torch.randn(batch, classes, generator=generator) * 2.0, dim=-1)
    target = torch.softmax(torch.randn(batch, classes, generator=generator) * 2.0, dim=-1)
    return [log_probs, target]
