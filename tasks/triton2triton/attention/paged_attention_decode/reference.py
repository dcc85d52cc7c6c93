import torch


def make_inputs(params, generator, device):
    batch, heads = int(params["batch"]), int(params["heads"])
    kv_heads, head_dim = int(params["kv_heads"]), int(params["head_dim"])
    block_size, max_len = int(params["block_size"]), int(params["max_len"])
    max_blocks = (max_len + block_size - 1) // block_size
    num_blocks = batch * max_blocks
    q = torch.randn((batch, heads, head_dim), generator=generator, device=device) * 2.0
    k_cache = torch.randn((num_blocks, block_size, kv_heads, head_dim), generator=generator,
                          device=device)
    v_cache = torch.randn((num_blocks, block_size, kv_heads, head_dim), generator=generator,
                          device=device)
    # Every table entry names a distinct page of the pool, in random order.
    perm = torch.argsort(torch.rand(num_blocks, generator=generator, device=device))
    block_tables = perm.reshape(batch, max_blocks).to(torch.int32)
    # Lengths: sequence 0 holds max_len tokens, the others uniform in
    # [max(1, max_len // 4), max_len].
    lo = max(1, max_len // 4)
    lens = torch.randint(lo, max_len + 1, (batch,), generator=generator, device=device)
    lens[:1].fill_(max_len)  # a fill, not a copy from the host: capturable
    return {"q": q.to(torch.float16),
            "k_cache": k_cache.to(torch.float16),
            "v_cache": v_cache.to(torch.float16),
            "block_tables": block_tables,
            "context_lens": lens.to(torch.int32)}


def reference(q, k_cache, v_cache, block_tables, context_lens,
              batch, heads, kv_heads, head_dim, block_size, max_len, scale, **_):
    group = heads // kv_heads
    tables = block_tables.to(torch.int64)
    # [batch, max_blocks * block_size, kv_heads, head_dim] in logical order.
    k = k_cache[tables].reshape(batch, -1, kv_heads, head_dim)
    v = v_cache[tables].reshape(batch, -1, kv_heads, head_dim)
    qg = q.reshape(batch, kv_heads, group, head_dim)
    s = torch.einsum("bkgd,bnkd->bkgn", qg, k) * scale
    pos = torch.arange(k.shape[1], device=q.device)
    valid = pos[None, :] < context_lens.to(torch.int64)[:, None]
    s = s.masked_fill(~valid[:, None, None, :], float("-inf"))
    p = torch.softmax(s, dim=-1)
    out = torch.einsum("bkgn,bnkd->bkgd", p, v)
    return out.reshape(batch, heads, head_dim)
