import torch

# Logits are multiples of 1 / GRID, so equal values (ties) are common.
GRID = 8.0


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    x = torch.randn((rows, vocab), generator=generator, device=device) * 2.0
    shift = torch.randint(-6, 7, (rows, 1), generator=generator, device=device).to(x.dtype)
    x = torch.round(x * GRID) / GRID + shift
    # About 1% masked tokens (-inf); no negative zeros.
    masked = torch.rand((rows, vocab), generator=generator, device=device) < 0.01
    x = x.masked_fill(masked, float("-inf")) + 0.0
    return {"logits": x.to(torch.float32)}


def reference(logits, rows, vocab, k, **_):
    # A stable descending sort puts the lower index first among equal values.
    keep = torch.sort(logits, dim=1, descending=True, stable=True).indices[:, :k]
    out = torch.full_like(logits, float("-inf"))
    return out.scatter_(1, keep, logits.gather(1, keep))
