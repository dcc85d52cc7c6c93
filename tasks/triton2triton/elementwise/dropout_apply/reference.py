import torch


def make_inputs(params, generator, device):
    rows, cols, p = int(params["rows"]), int(params["cols"]), float(params["p"])
    x = torch.randn((rows, cols), generator=generator, device=device)
    keep = torch.rand((rows, cols), generator=generator, device=device) >= p
    return {"x": x.to(torch.float16), "mask": keep.to(torch.uint8)}


def reference(x, mask, p, **_):
    # x arrives as float64, mask as uint8 holding 0 or 1.
    y = x * mask.to(x.dtype) * (1.0 / (1.0 - p))
    return y, mask.to(torch.int64).sum(dim=1).to(torch.int32)
