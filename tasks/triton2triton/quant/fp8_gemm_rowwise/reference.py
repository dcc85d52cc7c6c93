import torch


def _fp8_bytes(shape, generator, device):
    # Finite e4m3fn values (std 1, far below the 448 limit), stored as bytes.
    v = torch.randn(shape, generator=generator, device=device)
    return v.clamp(-448.0, 448.0).to(torch.float8_e4m3fn).view(torch.uint8)


def make_inputs(params, generator, device):
    m, n, k = int(params["m"]), int(params["n"]), int(params["k"])
    xq = _fp8_bytes((m, k), generator, device)
    wq = _fp8_bytes((n, k), generator, device)
    # Scales around k^(-1/4) each keep y of order one.
    base = float(k) ** -0.25
    x_scale = (torch.rand((m,), generator=generator, device=device) + 0.5) * base
    w_scale = (torch.rand((n,), generator=generator, device=device) + 0.5) * base
    return {"xq": xq, "wq": wq, "x_scale": x_scale, "w_scale": w_scale}


def reference(xq, wq, x_scale, w_scale, m, n, k, **_):
    # xq and wq are the uint8 bytes (unchanged); scales arrive as float64.
    x = xq.view(torch.float8_e4m3fn).to(torch.float64)
    w = wq.view(torch.float8_e4m3fn).to(torch.float64)
    return (x @ w.t()) * x_scale[:, None] * w_scale[None, :]
