import torch


def reference(x, n, c, r, h, w, **_):
    return torch.nn.functional.pixel_shuffle(x, int(r))
