import torch

# Tokens whose probability is below this (unless it is the row's largest)
# are never the drawn token, and u lands at least MARGIN * that token's
# probability inside the token's interval of the cumulative distribution.
MIN_PROB = 1e-3
MARGIN = 0.1


def _cdf(logits):
    """Inclusive cumulative weights exp(x - max) of each row, and the total."""
    w = torch.exp(logits - logits.max(dim=1, keepdim=True).values)
    c = torch.cumsum(w, dim=1)
    return w, c, c[:, -1:]


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    f64 = torch.float64
    # Logits like a language model's: a broad normal background, about 1%
    # masked to -inf, and up to 8 strong candidates per row.
    x = torch.randn((rows, vocab), generator=generator, device=device, dtype=f64) * 2.0
    masked = torch.rand((rows, vocab), generator=generator, device=device) < 0.01
    x = x.masked_fill(masked, float("-inf"))
    strong = torch.randint(0, vocab, (rows, min(8, vocab)), generator=generator, device=device)
    lift = torch.rand(strong.shape, generator=generator, device=device, dtype=f64) * 8.0 + 6.0
    x.scatter_(1, strong, lift)
    x = x.to(torch.float32).to(f64)  # what the kernel sees
    w, c, total = _cdf(x)
    p = w / total
    # The drawn token: by probability, among the tokens of probability
    # >= MIN_PROB (or the row's likeliest); then u inside its interval,
    # MARGIN of its width away from either end.
    eligible = (p >= MIN_PROB) | (p == p.max(dim=1, keepdim=True).values)
    pick = torch.multinomial(torch.where(eligible, p, 0.0), 1, generator=generator)
    lo = (c.gather(1, pick) - w.gather(1, pick)) / total
    width = p.gather(1, pick)
    frac = torch.rand((rows, 1), generator=generator, device=device, dtype=f64)
    u = lo + (MARGIN + (1.0 - 2.0 * MARGIN) * frac) * width
    return {"logits": x.to(torch.float32), "u": u.reshape(rows).to(torch.float32)}


def reference(logits, u, rows, vocab, **_):
    _, c, total = _cdf(logits)
    threshold = u[:, None] * total
    # c is non-decreasing: the count of c <= threshold is the first index
    # whose cumulative weight exceeds it.
    idx = (c <= threshold).sum(dim=1).clamp_max(vocab - 1)
    return idx.to(torch.int32)
