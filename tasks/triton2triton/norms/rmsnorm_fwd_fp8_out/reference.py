import torch

FP8_MAX = 448.0


def reference(x, w, eps, **_):
    # x and w arrive as float64 (exact copies of the bf16 inputs).
    y = x / torch.sqrt(x.pow(2).mean(dim=1, keepdim=True) + eps) * w
    amax = y.abs().amax(dim=1)
    scale = amax / FP8_MAX
    safe = torch.where(amax > 0, scale, torch.ones_like(scale))
    v = (y / safe[:, None]).clamp(-FP8_MAX, FP8_MAX)
    # Round to nearest (ties to even) onto the e4m3 grid.
    return v.to(torch.float8_e4m3fn), scale
