"""y = LayerNorm(GELU(x @ W^T + b)) over the last dim, fp32 (KernelBench level 2 style)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, eps):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.gelu = nn.GELU()
        self.norm = nn.LayerNorm(out_features, eps=eps)
        # A non-trivial affine part, so that ln_weight and ln_bias matter.
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.25)
            self.norm.bias.normal_(0.0, 0.25)

    def forward(self, x):
        return self.norm(self.gelu(self.linear(x)))


def get_init_inputs(config):
    return [int(config["K"]), int(config["N"]), float(config["eps"])]


def get_inputs(config, generator):
    return [torch.randn(int(config["M"]), int(config["K"]), generator=generator)]
