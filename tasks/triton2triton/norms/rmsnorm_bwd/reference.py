import torch


def reference(x, w, dy, eps, **_):
    n = x.shape[1]
    rstd = 1.0 / torch.sqrt(x.pow(2).mean(dim=1, keepdim=True) + eps)
    xhat = x * rstd
    g = dy * w
    c = (g * xhat).sum(dim=1, keepdim=True) / n
    dx = (g - xhat * c) * rstd
    dw = (dy * xhat).sum(dim=0)
    return dx, dw
