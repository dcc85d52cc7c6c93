import math

import torch


def make_inputs(params, generator, device):
    batch, heads = int(params["batch"]), int(params["heads"])
    kv_heads, head_dim = int(params["kv_heads"]), int(params["head_dim"])
    max_len = int(params["max_len"])
    q = torch.randn((batch, heads, head_dim), generator=generator, device=device) * 2.0
    k = torch.randn((batch, kv_heads, max_len, head_dim), generator=generator, device=device)
    v = torch.randn((batch, kv_heads, max_len, head_dim), generator=generator, device=device)
    # Sequence 0 fills the cache; the others hold a uniform length in
    # [ceil(max_len / 2), max_len].
    lens = torch.randint(max_len - max_len // 2, max_len + 1, (batch,), generator=generator,
                         device=device)
    lens[:1].fill_(max_len)  # a fill, not a copy from the host: capturable
    return {"q": q.to(torch.float16), "k": k.to(torch.float16), "v": v.to(torch.float16),
            "seq_lens": lens.to(torch.int32)}


def reference(q, k, v, seq_lens, batch, heads, kv_heads, max_len, window, head_dim, **_):
    scale = 1.0 / math.sqrt(head_dim)
    qg = q.reshape(batch, kv_heads, heads // kv_heads, head_dim)
    s = torch.einsum("bkgd,bknd->bkgn", qg, k) * scale
    pos = torch.arange(max_len, device=q.device)[None, :]
    n = seq_lens.to(torch.int64)[:, None]
    visible = (pos < n) & (pos >= n - window)
    s = s.masked_fill(~visible[:, None, None, :], float("-inf"))
    p = torch.softmax(s, dim=-1)
    return torch.einsum("bkgn,bknd->bkgd", p, v).reshape(batch, heads, head_dim)
