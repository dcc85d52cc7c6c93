import math

import torch


def reference(q, k, v, batch, heads, kv_heads, seq, head_dim, **_):
    scale = 1.0 / math.sqrt(head_dim)
    qg = q.reshape(batch, kv_heads, heads // kv_heads, head_dim)
    s = torch.einsum("bkgd,bknd->bkgn", qg, k) * scale
    p = torch.softmax(s, dim=-1)
    return torch.einsum("bkgn,bknd->bkgd", p, v).reshape(batch, heads, head_dim)
