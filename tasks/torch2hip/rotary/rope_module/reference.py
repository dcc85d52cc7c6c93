"""Neox-style rotary position embedding of q [batch, seq, heads, head_dim] in fp16, with the
cos/sin tables precomputed in __init__ as fp32 buffers of shape [max_seq, head_dim]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, head_dim, max_seq, base=10000.0):
        super().__init__()
        # inv_freq[i] = base^(-2i / head_dim); angle[p, i] = p * inv_freq[i]. The
        # tables repeat the head_dim / 2 angles twice (neox layout), as HF-style
        # rotary caches do.
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
        angles = torch.outer(torch.arange(max_seq, dtype=torch.float64), inv_freq)
        emb = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos_cached", emb.cos().to(torch.float32))
        self.register_buffer("sin_cached", emb.sin().to(torch.float32))
        self.half_dim = head_dim // 2

    def forward(self, q):
        seq = q.shape[1]
        cos = self.cos_cached[:seq].unsqueeze(1).to(q.dtype)  # [seq, 1, head_dim]
        sin = self.sin_cached[:seq].unsqueeze(1).to(q.dtype)
        x1 = q[..., :self.half_dim]
        x2 = q[..., self.half_dim:]
        rotated = torch.cat((-x2, x1), dim=-1)
        return q * cos + rotated * sin


def get_init_inputs(config):
    return [int(config["head_dim"]), int(config["max_seq"])]


def get_inputs(config, generator):
    shape = (int(config["batch"]), int(config["seq"]), int(config["heads"]),
             int(config["head_dim"]))
    return [torch.randn(*shape, generator=generator).to(torch.float16)]
