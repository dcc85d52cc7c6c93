import torch


def reference(a, b, dy, **_):
    # Gradients of y = silu(a) * b = a * sigmoid(a) * b.
    s = torch.sigmoid(a)
    da = dy * b * s * (1.0 + a * (1.0 - s))
    db = dy * a * s
    return da, db
