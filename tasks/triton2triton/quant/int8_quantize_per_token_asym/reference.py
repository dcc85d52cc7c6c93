import torch


def reference(x, rows, cols, **_):
    # x arrives as float64 (exact copies of the fp16 inputs).
    lo = x.amin(dim=1)
    hi = x.amax(dim=1)
    span = hi - lo
    scale = torch.where(span > 0, span / 255.0, torch.ones_like(span))
    zero_point = -lo / scale
    q = torch.round((x - lo[:, None]) / scale[:, None]).clamp(0, 255)
    return q.to(torch.uint8), scale, zero_point
