import torch


def make_inputs(params, generator, device):
    tokens, k = int(params["tokens"]), int(params["k"])
    experts = int(params["experts"])
    # k distinct experts per token from a skewed popularity (Gumbel top-k),
    # so expert loads are uneven and some experts may get nothing.
    popularity = torch.randn(experts, generator=generator, device=device)
    u = torch.rand((tokens, experts), generator=generator, device=device)
    gumbel = -torch.log(-torch.log(u.clamp(1e-20, 1.0 - 1e-7)))
    ids = torch.topk(popularity[None, :] + gumbel, k, dim=1).indices
    return {"topk_ids": ids.to(torch.int32)}


def reference(topk_ids, tokens, k, experts, block_size, **_):
    device = topk_ids.device
    n = tokens * k
    max_padded = n + experts * (block_size - 1)
    max_blocks = (max_padded + block_size - 1) // block_size
    flat = topk_ids.reshape(-1).to(torch.int64)
    counts = torch.bincount(flat, minlength=experts)
    padded = (counts + block_size - 1) // block_size * block_size
    offsets = torch.zeros(experts + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(padded, dim=0)
    # Stable sort by expert: within an expert, flat indices ascending.
    order = torch.sort(flat, stable=True).indices
    sorted_experts = flat[order]
    unpadded_start = torch.cumsum(counts, dim=0) - counts
    rank = torch.arange(n, device=device) - unpadded_start[sorted_experts]
    sorted_ids = torch.full((max_padded,), n, dtype=torch.int64, device=device)
    sorted_ids[offsets[sorted_experts] + rank] = order
    blocks = torch.full((max_blocks,), -1, dtype=torch.int64, device=device)
    used = int(offsets[experts].item()) // block_size
    block_start = torch.arange(used, device=device) * block_size
    blocks[:used] = torch.searchsorted(offsets[1:], block_start, right=True)
    return sorted_ids.to(torch.int32), blocks.to(torch.int32), offsets.to(torch.int32)
