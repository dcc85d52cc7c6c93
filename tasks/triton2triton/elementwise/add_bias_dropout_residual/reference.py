import torch


def make_inputs(params, generator, device):
    rows, cols, p = int(params["rows"]), int(params["cols"]), float(params["p"])
    x = torch.randn((rows, cols), generator=generator, device=device)
    bias = torch.randn((cols,), generator=generator, device=device) * 0.5
    residual = torch.randn((rows, cols), generator=generator, device=device)
    keep = torch.rand((rows, cols), generator=generator, device=device) >= p
    return {"x": x.to(torch.float16), "bias": bias.to(torch.float16),
            "residual": residual.to(torch.float16), "mask": keep.to(torch.uint8)}


def reference(x, bias, residual, mask, p, **_):
    # Floating inputs arrive as float64; mask as uint8 holding 0 or 1.
    h = (x + bias[None, :]) * mask.to(x.dtype) * (1.0 / (1.0 - p))
    return residual + h
