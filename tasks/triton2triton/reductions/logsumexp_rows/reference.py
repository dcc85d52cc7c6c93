import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    # Rows are shifted by very different amounts (a naive sum of exp would
    # overflow fp32 on some and underflow on others).
    shift = torch.randn((rows, 1), generator=generator, device=device) * 40.0
    x = torch.randn((rows, cols), generator=generator, device=device) * 2.0 + shift
    # About 2% of the entries are -inf (masked logits), and about 1% of the
    # rows are -inf throughout (their result is -inf); with several rows, at
    # least one of them is.
    hidden = torch.rand((rows, cols), generator=generator, device=device) < 0.02
    dead = torch.rand((rows, 1), generator=generator, device=device) < 0.01
    if rows > 1:
        pick = torch.randint(0, rows, (1,), generator=generator, device=device)
        dead[pick] = True
    x = x.masked_fill(hidden | dead, float("-inf"))
    return {"x": x.to(torch.bfloat16)}


def reference(x, **_):
    return torch.logsumexp(x, dim=1)
