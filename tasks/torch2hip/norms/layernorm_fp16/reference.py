"""LayerNorm over the last dimension of an fp16 [rows, D] matrix: nn.LayerNorm(D, eps) in fp16."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, normalized_dim, eps):
        super().__init__()
        self.norm = nn.LayerNorm(normalized_dim, eps=eps, dtype=torch.float16)
        # Non-trivial affine parameters (the default is weight = 1, bias = 0).
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.5 * torch.randn(normalized_dim))
            self.norm.bias.copy_(0.5 * torch.randn(normalized_dim))

    def forward(self, x):
        return self.norm(x)


def get_init_inputs(config):
    return [int(config["D"]), float(config["eps"])]


def get_inputs(config, generator):
    return [torch.randn(int(config["rows"]), int(config["D"]), generator=generator,
                        dtype=torch.float16)]
