import math

import torch

# Logits are multiples of 1 / GRID; every min_p used keeps log(min_p) at
# least 0.004 away from a multiple of 1 / GRID, so no probability lies near
# the cut min_p * max(p).
GRID = 8.0


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    cut = math.log(float(params["min_p"])) * GRID
    if abs(cut - round(cut)) < 0.004 * GRID:
        raise ValueError("min_p too close to the logit grid")
    x = torch.randn((rows, vocab), generator=generator, device=device) * 2.0
    shift = torch.randint(-8, 9, (rows, 1), generator=generator, device=device).to(x.dtype)
    x = torch.round(x * GRID) / GRID + shift
    # About 1% masked tokens (-inf), never the first one (no empty row); no
    # negative zeros.
    masked = torch.rand((rows, vocab), generator=generator, device=device) < 0.01
    masked[:, 0] = False
    x = x.masked_fill(masked, float("-inf")) + 0.0
    return {"logits": x.to(torch.float32)}


def reference(logits, rows, vocab, min_p, **_):
    p = torch.softmax(logits, dim=1)
    cut = float(min_p) * p.max(dim=1, keepdim=True).values
    return torch.where(p < cut, float("-inf"), logits)
