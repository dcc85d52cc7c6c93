import torch


def make_inputs(params, generator, device):
    tokens, k = int(params["tokens"]), int(params["k"])
    experts, hidden = int(params["experts"]), int(params["hidden"])
    x = torch.randn((tokens, hidden), generator=generator, device=device)
    # k distinct experts per token, drawn without replacement from a skewed
    # popularity (Gumbel top-k), so expert loads are uneven.
    popularity = torch.randn(experts, generator=generator, device=device)
    u = torch.rand((tokens, experts), generator=generator, device=device)
    gumbel = -torch.log(-torch.log(u.clamp(1e-20, 1.0 - 1e-7)))
    ids = torch.topk(popularity[None, :] + gumbel, k, dim=1).indices
    return {"x": x.to(torch.float16), "topk_ids": ids.to(torch.int32)}


def reference(x, topk_ids, tokens, k, experts, hidden, **_):
    flat = topk_ids.reshape(-1).to(torch.int64)
    # Stable sort of the flat (token, slot) entries by expert: within an
    # expert, by token index, then slot.
    order = torch.sort(flat, stable=True).indices
    out = x[order // k]
    dest = torch.empty_like(flat)
    dest[order] = torch.arange(flat.numel(), device=flat.device)
    return out, dest.reshape(tokens, k).to(torch.int32)
