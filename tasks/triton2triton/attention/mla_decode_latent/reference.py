import torch


def reference(q, cache, batch, heads, seq, latent_dim, scale, **_):
    # Keys and values are both the latent cache: s = scale * q . c_j,
    # o = softmax(s) @ C.
    s = torch.einsum("bhd,bnd->bhn", q, cache) * scale
    p = torch.softmax(s, dim=-1)
    return torch.einsum("bhn,bnd->bhd", p, cache)
