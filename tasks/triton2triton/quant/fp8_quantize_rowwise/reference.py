import torch

FP8_MAX = 448.0


def reference(x, rows, cols, **_):
    # x arrives as float64 (exact copies of the bf16 inputs).
    amax = x.abs().amax(dim=1)
    scale = amax / FP8_MAX
    safe = torch.where(amax > 0, scale, torch.ones_like(scale))
    v = (x / safe[:, None]).clamp(-FP8_MAX, FP8_MAX)
    v = torch.where(amax[:, None] > 0, v, torch.zeros_like(v))
    # Round to nearest (ties to even) onto the e4m3 grid.
    return v.to(torch.float8_e4m3fn), scale
