import torch

ROPE_BASE = 10000.0


def make_inputs(params, generator, device):
    batch, seq = int(params["batch"]), int(params["seq"])
    heads, head_dim = int(params["heads"]), int(params["head_dim"])
    half = int(params["rotary_dim"]) // 2
    q = torch.randn((batch, seq, heads, head_dim), generator=generator, device=device)
    # Positions start at a random offset, as when appending to a KV cache.
    offset = int(torch.randint(0, 4096, (1,), generator=generator, device=device).item())
    pos = torch.arange(offset, offset + seq, device=device, dtype=torch.float64)
    inv_freq = ROPE_BASE ** (-torch.arange(0, half, device=device, dtype=torch.float64) / half)
    angles = pos[:, None] * inv_freq[None, :]
    return {"q": q.to(torch.bfloat16),
            "cos": torch.cos(angles).to(torch.float32),
            "sin": torch.sin(angles).to(torch.float32)}


def reference(q, cos, sin, rotary_dim, **_):
    half = rotary_dim // 2
    x1, x2 = q[..., :half], q[..., half:rotary_dim]
    c = cos[None, :, None, :]
    s = sin[None, :, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s, q[..., rotary_dim:]], dim=-1)
