import torch


def reference(x, smooth, rows, cols, **_):
    # x and smooth arrive as float64 (exact copies of the inputs).
    xs = x / smooth[None, :]
    amax = xs.abs().amax(dim=1)
    scale = amax / 127.0
    safe = torch.where(amax > 0, scale, torch.ones_like(scale))
    q = torch.round(xs / safe[:, None]).clamp(-127, 127)
    q = torch.where(amax[:, None] > 0, q, torch.zeros_like(q))
    return q.to(torch.int8), scale
