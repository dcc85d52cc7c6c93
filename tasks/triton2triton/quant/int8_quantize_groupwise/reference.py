import torch


def reference(x, rows, cols, group_size, **_):
    # x arrives as float64 (exact copies of the fp16 inputs).
    g = x.reshape(rows, cols // group_size, group_size)
    amax = g.abs().amax(dim=2)
    scales = (amax / 127.0).to(torch.float16)
    s = scales.to(torch.float64)
    safe = torch.where(s > 0, s, torch.ones_like(s))
    q = torch.round(g / safe[:, :, None]).clamp(-127, 127)
    q = torch.where(s[:, :, None] > 0, q, torch.zeros_like(q))
    return q.reshape(rows, cols).to(torch.int8), scales
