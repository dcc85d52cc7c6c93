import torch

# Logits are multiples of 1 / GRID within +-LIMIT: different logits give
# scores far apart in fp32, equal logits give equal scores (ties are common).
GRID = 8.0
LIMIT = 6.0
# Two groups whose best-two pairs differ must have sums at least this far
# apart; rows that break this are drawn again.
GAP = 1e-5


def _draw(n, experts, generator, device):
    x = torch.randn((n, experts), generator=generator, device=device, dtype=torch.float64) * 1.5
    return torch.clamp(torch.round(x * GRID) / GRID, -LIMIT, LIMIT) + 0.0


def _ambiguous(x, n_groups):
    # Rows where two groups with different best-two pairs have nearly equal
    # (or, like s(a) + s(-a) == s(b) + s(-b), exactly equal) sums.
    t, experts = x.shape
    top2 = torch.sigmoid(x).view(t, n_groups, experts // n_groups).topk(2, dim=-1).values
    gs = top2.sum(-1)
    close = (gs[:, :, None] - gs[:, None, :]).abs() < GAP
    same = (top2[:, :, None, :] == top2[:, None, :, :]).all(-1)
    return (close & ~same).flatten(1).any(1)


def make_inputs(params, generator, device):
    tokens, experts = int(params["tokens"]), int(params["experts"])
    n_groups = int(params["n_groups"])
    x = _draw(tokens, experts, generator, device)
    for _ in range(200):
        bad = _ambiguous(x, n_groups)
        nbad = int(bad.sum())
        if nbad == 0:
            break
        x[bad] = _draw(nbad, experts, generator, device)
    else:
        raise RuntimeError("could not separate the group scores")
    return {"logits": x.to(torch.float32)}


def reference(logits, tokens, experts, n_groups, topk_groups, k, **_):
    s = torch.sigmoid(logits)
    gsize = experts // n_groups
    gs = s.view(tokens, n_groups, gsize).topk(2, dim=-1).values.sum(-1)
    # A stable descending sort puts the lower index first among equal values.
    groups = torch.sort(gs, dim=1, descending=True, stable=True).indices[:, :topk_groups]
    gmask = torch.zeros((tokens, n_groups), dtype=torch.bool, device=s.device)
    gmask.scatter_(1, groups, True)
    allowed = gmask.repeat_interleave(gsize, dim=1)
    cand = torch.where(allowed, s, -1.0)
    ids = torch.sort(cand, dim=1, descending=True, stable=True).indices[:, :k]
    w = torch.gather(s, 1, ids)
    return w / w.sum(dim=1, keepdim=True), ids.to(torch.int32)
