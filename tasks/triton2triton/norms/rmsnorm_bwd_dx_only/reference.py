import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    eps = float(params["eps"])
    # Each row has its own scale, so rstd differs from row to row; rstd is
    # the forward pass's saved value for the bf16 x.
    scale = torch.exp(torch.empty((rows, 1), device=device).uniform_(
        -1.5, 1.5, generator=generator))
    x = (torch.randn((rows, cols), generator=generator, device=device) * scale).to(torch.bfloat16)
    w = (torch.randn((cols,), generator=generator, device=device) * 0.3 + 1.0).to(torch.bfloat16)
    dy = torch.randn((rows, cols), generator=generator, device=device).to(torch.bfloat16)
    xf = x.float()
    rstd = torch.rsqrt(xf.pow(2).mean(dim=1) + eps)
    return {"x": x, "w": w, "dy": dy, "rstd": rstd}


def reference(x, w, dy, rstd, **_):
    r = rstd[:, None]
    xhat = x * r
    g = dy * w
    c = (g * xhat).mean(dim=1, keepdim=True)
    return (g - xhat * c) * r
