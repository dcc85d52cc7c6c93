import torch


def make_inputs(params, generator, device):
    bh, splits = int(params["bh"]), int(params["splits"])
    head_dim = int(params["head_dim"])
    o_partial = torch.randn((bh, splits, head_dim), generator=generator, device=device)
    # Log-sum-exps of splits of a few hundred keys with logits of a few units.
    lse = 4.0 + 2.0 * torch.randn((bh, splits), generator=generator, device=device)
    # About one split in 6 is empty (its kv range was past the sequence's
    # end): lse = -inf and its partial output is NaN. Split 0 never is.
    empty = torch.rand((bh, splits), generator=generator, device=device) < 1.0 / 6.0
    empty[:, :1].fill_(False)  # a fill, not a copy from the host: capturable
    lse = torch.where(empty, torch.full_like(lse, float("-inf")), lse)
    o_partial = torch.where(empty[:, :, None], torch.full_like(o_partial, float("nan")),
                            o_partial)
    return {"o_partial": o_partial.to(torch.float32), "lse": lse.to(torch.float32)}


def reference(o_partial, lse, **_):
    m = lse.max(dim=1, keepdim=True).values
    w = torch.exp(lse - m)
    keep = torch.isfinite(lse)
    w = torch.where(keep, w, torch.zeros_like(w))
    parts = torch.where(keep[:, :, None], o_partial, torch.zeros_like(o_partial))
    return (w[:, :, None] * parts).sum(dim=1) / w.sum(dim=1, keepdim=True)
