import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    # Rows sit at very different levels (shifts of tens either way: exp
    # without a running maximum overflows or underflows fp32) and drift up or
    # down by up to 40 along the row, so the running maximum keeps moving.
    # Within a row the finite values stay within about 60 of each other.
    shift = torch.randn((rows, 1), generator=generator, device=device) * 40.0
    slope = (torch.rand((rows, 1), generator=generator, device=device) * 2.0 - 1.0) * 40.0
    pos = torch.arange(cols, device=device, dtype=torch.float32) / max(cols - 1, 1)
    x = shift + slope * pos + 2.0 * torch.randn((rows, cols), generator=generator,
                                                device=device)
    # About 1% of the entries are -inf, and one row starts with a run of -inf
    # (its prefix results are -inf).
    hidden = torch.rand((rows, cols), generator=generator, device=device) < 0.01
    pick = int(torch.randint(0, rows, (1,), generator=generator, device=device))
    run = int(torch.randint(1, min(cols, 50) + 1, (1,), generator=generator, device=device))
    hidden[pick, :run] = True
    return {"x": x.masked_fill(hidden, float("-inf"))}


def reference(x, **_):
    return torch.logcumsumexp(x, dim=1)
