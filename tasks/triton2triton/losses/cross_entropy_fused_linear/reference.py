import math

import torch

IGNORE_INDEX = -100


def make_inputs(params, generator, device):
    rows, d, vocab = int(params["rows"]), int(params["d"]), int(params["vocab"])
    hidden = torch.randn((rows, d), generator=generator, device=device)
    # Uniform in [-a, a] with a = 3 * sqrt(3 / d): logits have a standard
    # deviation of about 3.
    a = 3.0 * math.sqrt(3.0 / d)
    weight = (torch.rand((d, vocab), generator=generator, device=device) * 2.0 - 1.0) * a
    targets = torch.randint(0, vocab, (rows,), generator=generator, device=device)
    ignored = torch.rand((rows,), generator=generator, device=device) < 0.1
    targets = torch.where(ignored, torch.full_like(targets, IGNORE_INDEX), targets)
    return {"hidden": hidden.to(torch.float16), "weight": weight.to(torch.float16),
            "targets": targets.to(torch.int64)}


def reference(hidden, weight, targets, **_):
    logits = hidden @ weight
    lse = torch.logsumexp(logits, dim=1)
    valid = targets != IGNORE_INDEX
    picked = logits.gather(1, torch.where(valid, targets, 0)[:, None]).squeeze(1)
    return torch.where(valid, lse - picked, torch.zeros_like(lse))
