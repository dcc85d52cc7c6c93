import math

import torch


def make_inputs(params, generator, device):
    tokens, k = int(params["tokens"]), int(params["k"])
    n, experts = int(params["n"]), int(params["experts"])
    bound = math.sqrt(3.0) / math.sqrt(math.sqrt(k))
    x = (torch.rand((tokens, k), generator=generator, device=device) * 2.0 - 1.0) * bound
    w = (torch.rand((experts, k, n), generator=generator, device=device) * 2.0 - 1.0) * bound
    # Uneven groups: skewed expert popularity, about one expert in six gets
    # no rows at all (at least one expert is always used).
    logits = torch.randn(experts, generator=generator, device=device)
    used = torch.rand(experts, generator=generator, device=device) >= 1.0 / 6.0
    used[int(torch.argmax(logits).item())] = True
    probs = torch.softmax(logits, dim=0) * used
    picks = torch.multinomial(probs, tokens, replacement=True, generator=generator)
    counts = torch.bincount(picks, minlength=experts)
    offsets = torch.zeros(experts + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(counts, dim=0)
    return {"x": x.to(torch.float16), "w": w.to(torch.float16),
            "expert_offsets": offsets.to(torch.int32)}


def reference(x, w, expert_offsets, tokens, k, n, experts, **_):
    y = torch.empty((tokens, n), dtype=x.dtype, device=x.device)
    bounds = expert_offsets.tolist()
    for e in range(experts):
        lo, hi = bounds[e], bounds[e + 1]
        if hi > lo:
            y[lo:hi] = x[lo:hi] @ w[e]
    return y
