"""RMSNorm over the last dimension of a bf16 [rows, D] matrix with a bf16 weight.

y = x / sqrt(mean(x^2) + eps) * weight, computed in (at least) fp32 and
rounded once to the input dtype.
"""
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps, dtype):
        super().__init__()
        self.eps = float(eps)
        self.weight = nn.Parameter(torch.ones(dim, dtype=dtype))

    def forward(self, x):
        # fp32 math for bf16/fp16 inputs, float64 stays float64.
        wide = torch.promote_types(x.dtype, torch.float32)
        xf = x.to(wide)
        rstd = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (xf * rstd * self.weight.to(wide)).to(x.dtype)


class Model(nn.Module):
    def __init__(self, normalized_dim, eps):
        super().__init__()
        self.norm = RMSNorm(normalized_dim, eps, torch.bfloat16)
        # A non-trivial weight (the default is all ones).
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.5 * torch.randn(normalized_dim))

    def forward(self, x):
        return self.norm(x)


def get_init_inputs(config):
    return [int(config["D"]), float(config["eps"])]


def get_inputs(config, generator):
    x = torch.randn(int(config["rows"]), int(config["D"]), generator=generator) * 2.0
    return [x.to(torch.bfloat16)]
