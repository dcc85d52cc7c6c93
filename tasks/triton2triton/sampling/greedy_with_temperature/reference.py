import torch

# Logits are multiples of 1 / GRID.
GRID = 32.0
# Smallest distance (in units of 1 / GRID) kept between a penalized value
# and the grid of the unpenalized ones.
MARGIN = 4e-3


def _penalized(x, penalty):
    return torch.where(x > 0, x / penalty, x * penalty)


def make_inputs(params, generator, device):
    rows, vocab, n_prev = int(params["rows"]), int(params["vocab"]), int(params["n_prev"])
    penalty = float(params["penalty"])
    f64 = torch.float64
    # Logits on a grid of 1/32 (exact in fp32, and equal values are common);
    # each row is shifted by a whole number, some far enough to be negative
    # throughout.
    x = torch.randn((rows, vocab), generator=generator, device=device, dtype=f64) * 2.5
    shift = torch.randint(-14, 7, (rows, 1), generator=generator, device=device).to(f64)
    x = torch.round(x * GRID) / GRID + shift
    prev = torch.randint(0, vocab, (rows, n_prev), generator=generator, device=device)
    r = torch.arange(rows, device=device)
    top = x.max(dim=1).values
    # Ties: in about half the rows another position gets the row's maximum.
    tie_pos = torch.randint(0, vocab, (rows,), generator=generator, device=device)
    tie = torch.rand((rows,), generator=generator, device=device) < 0.5
    x[r[tie], tie_pos[tie]] = top[tie]
    # A recent token near the top: each row's first previous id gets a logit
    # whose penalized value lands within 0.5 of the row's maximum, so that the
    # penalty decides whether it wins.
    target = top + torch.rand((rows,), generator=generator, device=device, dtype=f64) - 0.5
    raw = torch.where(target > 0, target * penalty, target / penalty)
    x[r, prev[:, 0]] = torch.round(raw * GRID) / GRID
    # No penalized value may come closer than MARGIN / GRID to the grid of
    # the unpenalized values unless equal to them in every arithmetic: move
    # such logits one step up (a repeated id gets the same treatment).
    for _ in range(100):
        vals = x.gather(1, prev)
        pv = _penalized(vals, penalty) * GRID
        near = (pv - torch.round(pv)).abs() < MARGIN
        if not bool(near.any()):
            break
        x.scatter_(1, prev, torch.where(near, vals + 1.0 / GRID, vals))
    else:
        raise RuntimeError("could not separate the penalized logits from the grid")
    x = x + 0.0  # no negative zeros
    return {"logits": x.to(torch.float32), "prev_ids": prev.to(torch.int32)}


def reference(logits, prev_ids, rows, vocab, n_prev, temperature, penalty, **_):
    penalized = torch.zeros(logits.shape, dtype=torch.bool, device=logits.device)
    penalized.scatter_(1, prev_ids.to(torch.int64), True)
    x = torch.where(penalized, _penalized(logits, float(penalty)), logits) / float(temperature)
    m = x.max(dim=1, keepdim=True).values
    idx = torch.arange(vocab, device=x.device)[None, :]
    # The lowest index among the maxima.
    return torch.where(x == m, idx, vocab).min(dim=1).values.to(torch.int32)
