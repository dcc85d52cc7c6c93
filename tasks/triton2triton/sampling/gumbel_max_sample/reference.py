import torch

# Logits are multiples of 1 / 64 and the noise multiples of 1 / 1024, both of
# modest size, and temperatures are powers of two: logits / temperature + g
# is exact in fp32, so equal values (ties) are decided by index alone.
LOGIT_GRID = 64.0
NOISE_GRID = 1024.0


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    t = float(params["temperature"])
    m, e = torch.frexp(torch.tensor(t, dtype=torch.float64))
    if float(m) != 0.5:
        raise ValueError("temperature must be a power of two")
    f64 = torch.float64
    x = torch.randn((rows, vocab), generator=generator, device=device, dtype=f64) * 2.0
    shift = torch.randint(-8, 9, (rows, 1), generator=generator, device=device).to(f64)
    x = torch.round(x * LOGIT_GRID) / LOGIT_GRID + shift
    # Gumbel(0, 1) noise: -log(-log(u)), u in (0, 1).
    u = torch.rand((rows, vocab), generator=generator, device=device, dtype=f64)
    u = u.clamp(1e-12, 1.0 - 1e-12)
    g = torch.round(-torch.log(-torch.log(u)) * NOISE_GRID) / NOISE_GRID
    # Ties: in about half the rows another position gets the winner's logit
    # and noise.
    y = x / t + g
    r = torch.arange(rows, device=device)
    win = y.argmax(dim=1)
    tie_pos = torch.randint(0, vocab, (rows,), generator=generator, device=device)
    tie = torch.rand((rows,), generator=generator, device=device) < 0.5
    x[r[tie], tie_pos[tie]] = x[r[tie], win[tie]]
    g[r[tie], tie_pos[tie]] = g[r[tie], win[tie]]
    return {"logits": (x + 0.0).to(torch.float32), "gumbel": (g + 0.0).to(torch.float32)}


def reference(logits, gumbel, rows, vocab, temperature, **_):
    y = logits / float(temperature) + gumbel
    m = y.max(dim=1, keepdim=True).values
    idx = torch.arange(vocab, device=y.device)[None, :]
    # The lowest index among the maxima.
    return torch.where(y == m, idx, vocab).min(dim=1).values.to(torch.int32)
