import torch


def make_inputs(params, generator, device):
    tokens, kv_heads = int(params["tokens"]), int(params["kv_heads"])
    head_dim, block_size = int(params["head_dim"]), int(params["block_size"])
    num_blocks = int(params["num_blocks"])
    slots = num_blocks * block_size
    key = torch.randn((tokens, kv_heads, head_dim), generator=generator, device=device)
    value = torch.randn((tokens, kv_heads, head_dim), generator=generator, device=device)
    k_cache = torch.randn((num_blocks, block_size, kv_heads, head_dim), generator=generator,
                          device=device)
    v_cache = torch.randn((num_blocks, block_size, kv_heads, head_dim), generator=generator,
                          device=device)
    # Distinct slots scattered through the whole pool; about one token in 16
    # is padding (slot -1) and must be skipped.
    order = torch.rand(slots, generator=generator, device=device)
    mapping = torch.argsort(order)[:tokens]
    skip = torch.rand(tokens, generator=generator, device=device) < 1.0 / 16.0
    mapping = torch.where(skip, torch.full_like(mapping, -1), mapping)
    return {"key": key.to(torch.float16), "value": value.to(torch.float16),
            "slot_mapping": mapping.to(torch.int64),
            "k_cache": k_cache.to(torch.float16), "v_cache": v_cache.to(torch.float16)}


def reference(key, value, slot_mapping, k_cache, v_cache,
              tokens, kv_heads, head_dim, block_size, num_blocks, **_):
    keep = slot_mapping >= 0
    slots = slot_mapping[keep]
    k_out = k_cache.clone().reshape(-1, kv_heads, head_dim)
    v_out = v_cache.clone().reshape(-1, kv_heads, head_dim)
    k_out[slots] = key[keep]
    v_out[slots] = value[keep]
    return {"k_cache": k_out.reshape(k_cache.shape), "v_cache": v_out.reshape(v_cache.shape)}
