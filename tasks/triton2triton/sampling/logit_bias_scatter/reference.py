import torch


def make_inputs(params, generator, device):
    rows, vocab, nb = int(params["rows"]), int(params["vocab"]), int(params["nb"])
    x = torch.randn((rows, vocab), generator=generator, device=device) * 2.0
    # Distinct ids per row: start + j * stride (mod vocab) with the stride
    # coprime to vocab, then shuffled within the row.
    start = torch.randint(0, vocab, (rows, 1), generator=generator, device=device)
    stride = torch.randint(1, vocab + 1, (rows, 1), generator=generator, device=device)
    for _ in range(100):
        bad = torch.gcd(stride, torch.full_like(stride, vocab)) != 1
        if not bool(bad.any()):
            break
        stride = torch.where(bad, stride % vocab + 1, stride)
    else:
        raise RuntimeError("no stride coprime to vocab")
    j = torch.arange(nb, device=device)[None, :]
    ids = (start + j * stride) % vocab
    shuffle = torch.rand((rows, nb), generator=generator, device=device).argsort(dim=1)
    ids = ids.gather(1, shuffle)
    # Biases as an API would pass them: mostly small, some +-100 (ban/force).
    vals = torch.randn((rows, nb), generator=generator, device=device) * 3.0
    hard = torch.rand((rows, nb), generator=generator, device=device) < 0.05
    sign = torch.where(torch.rand((rows, nb), generator=generator, device=device) < 0.5, -1.0, 1.0)
    vals = torch.where(hard, 100.0 * sign, vals)
    return {"logits": x, "bias_ids": ids.to(torch.int32), "bias_vals": vals}


def reference(logits, bias_ids, bias_vals, rows, vocab, nb, **_):
    return logits.scatter_add(1, bias_ids.to(torch.int64), bias_vals)
