import torch


def reference(x, w, dy, eps, **_):
    n = x.shape[1]
    mean = x.mean(dim=1, keepdim=True)
    var = (x - mean).pow(2).mean(dim=1, keepdim=True)
    rstd = 1.0 / torch.sqrt(var + eps)
    xhat = (x - mean) * rstd
    g = dy * w
    c1 = (g * xhat).sum(dim=1, keepdim=True) / n
    c2 = g.sum(dim=1, keepdim=True) / n
    dx = (g - xhat * c1 - c2) * rstd
    dw = (dy * xhat).sum(dim=0)
    db = dy.sum(dim=0)
    return dx, dw, db
