"""Causal attention out = softmax(mask(Q K^T / sqrt(d))) V over [batch*heads, seq, d], fp16."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        seq, d = q.shape[-2], q.shape[-1]
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
        # Query i attends to keys j <= i.
        mask = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        return torch.matmul(probs, v)


def get_init_inputs(config):
    return []


def get_inputs(config, generator):
    shape = (int(config["bh"]), int(config["seq"]), int(config["d"]))
    return [torch.randn(*shape, generator=generator).to(torch.float16) for _ in range(3)]
