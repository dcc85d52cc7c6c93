import math

import torch


def reference(q, k, v, batch, heads, kv_len, head_dim, softcap, **_):
    scale = 1.0 / math.sqrt(head_dim)
    s = torch.einsum("bhd,bhnd->bhn", q, k) * scale
    s = softcap * torch.tanh(s / softcap)
    p = torch.softmax(s, dim=-1)
    return torch.einsum("bhn,bhnd->bhd", p, v)
