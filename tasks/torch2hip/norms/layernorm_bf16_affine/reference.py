"""LayerNorm over the last dimension of a bf16 [rows, D] matrix with bf16 weight and bias:
nn.LayerNorm(D, eps) with elementwise_affine=True, parameters in bfloat16."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, normalized_dim, eps):
        super().__init__()
        self.norm = nn.LayerNorm(normalized_dim, eps=eps, elementwise_affine=True,
                                 dtype=torch.bfloat16)
        # Non-trivial affine parameters (the default is weight = 1, bias = 0).
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.5 * torch.randn(normalized_dim))
            self.norm.bias.copy_(0.5 * torch.randn(normalized_dim))

    def forward(self, x):
        return self.norm(x)


def get_init_inputs(config):
    return [int(config["D"]), float(config["eps"])]


def get_inputs(config, generator):
    rows, D = int(config["rows"]), int(config["D"])
    # Rows with their own offset (in [-1, 1)) and spread (in [0.5, 2)), so the
    # mean subtraction and the scaling both matter.
    offset = torch.rand(rows, 1, generator=generator) * 2.0 - 1.0
    scale = torch.rand(rows, 1, generator=generator) * 1.5 + 0.5
    x = torch.randn(rows, D, generator=generator) * scale + offset
    return [x.to(torch.bfloat16)]
