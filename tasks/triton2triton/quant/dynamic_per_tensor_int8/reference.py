import torch


def reference(x, n, **_):
    # x arrives as float64 (exact copies of the fp16 inputs).
    amax = x.abs().max()
    scale = amax / 127.0
    if amax > 0:
        q = torch.round(x / scale).clamp(-127, 127)
    else:
        q = torch.zeros_like(x)
    return q.to(torch.int8), scale.reshape(1)
