import torch.nn.functional as F


def reference(x, rows, d, **_):
    d = int(d)
    return F.gelu(x[:, :d]) * x[:, d:]
