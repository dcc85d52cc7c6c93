import torch

ROPE_BASE = 10000.0


def make_inputs(params, generator, device):
    tokens, kv_heads = int(params["tokens"]), int(params["kv_heads"])
    head_dim, num_slots = int(params["head_dim"]), int(params["num_slots"])
    max_pos = int(params["max_pos"])
    half = head_dim // 2
    key = torch.randn((tokens, kv_heads, head_dim), generator=generator, device=device)
    value = torch.randn((tokens, kv_heads, head_dim), generator=generator, device=device)
    k_cache = torch.randn((num_slots, kv_heads, head_dim), generator=generator, device=device)
    v_cache = torch.randn((num_slots, kv_heads, head_dim), generator=generator, device=device)
    positions = torch.randint(0, max_pos, (tokens,), generator=generator, device=device)
    # Distinct slots scattered through the whole cache.
    order = torch.rand(num_slots, generator=generator, device=device)
    slots = torch.argsort(order)[:tokens]
    pos = torch.arange(max_pos, device=device, dtype=torch.float64)
    inv_freq = ROPE_BASE ** (-torch.arange(0, half, device=device, dtype=torch.float64) / half)
    angles = pos[:, None] * inv_freq[None, :]
    return {"key": key.to(torch.float16), "value": value.to(torch.float16),
            "positions": positions.to(torch.int32),
            "cos": torch.cos(angles).to(torch.float32),
            "sin": torch.sin(angles).to(torch.float32),
            "slot_mapping": slots.to(torch.int64),
            "k_cache": k_cache.to(torch.float16), "v_cache": v_cache.to(torch.float16)}


def reference(key, value, positions, cos, sin, slot_mapping, k_cache, v_cache, **_):
    half = key.shape[-1] // 2
    pos = positions.long()
    c = cos[pos][:, None, :]
    s = sin[pos][:, None, :]
    x1, x2 = key[..., :half], key[..., half:]
    rotated = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)
    k_out = k_cache.clone()
    v_out = v_cache.clone()
    slots = slot_mapping.long()
    k_out[slots] = rotated.to(k_out.dtype)
    v_out[slots] = value.to(v_out.dtype)
    return {"k_cache": k_out, "v_cache": v_out}
