import torch

ROPE_BASE = 10000.0


def make_inputs(params, generator, device):
    tokens, heads = int(params["tokens"]), int(params["heads"])
    kv_heads, head_dim = int(params["kv_heads"]), int(params["head_dim"])
    max_pos = int(params["max_pos"])
    half = head_dim // 2
    q = torch.randn((tokens, heads, head_dim), generator=generator, device=device)
    k = torch.randn((tokens, kv_heads, head_dim), generator=generator, device=device)
    # Positions of a packed batch of requests: any value in [0, max_pos).
    positions = torch.randint(0, max_pos, (tokens,), generator=generator, device=device)
    pos = torch.arange(max_pos, device=device, dtype=torch.float64)
    inv_freq = ROPE_BASE ** (-torch.arange(0, half, device=device, dtype=torch.float64) / half)
    angles = pos[:, None] * inv_freq[None, :]
    return {"q": q.to(torch.float16), "k": k.to(torch.float16),
            "positions": positions.to(torch.int32),
            "cos": torch.cos(angles).to(torch.float32),
            "sin": torch.sin(angles).to(torch.float32)}


def _rotate_pairs(x, c, s):
    x0, x1 = x[..., 0::2], x[..., 1::2]
    y = torch.empty_like(x)
    y[..., 0::2] = x0 * c - x1 * s
    y[..., 1::2] = x1 * c + x0 * s
    return y


def reference(q, k, positions, cos, sin, **_):
    idx = positions.to(torch.int64)
    c = cos[idx][:, None, :]
    s = sin[idx][:, None, :]
    return _rotate_pairs(q, c, s), _rotate_pairs(k, c, s)
