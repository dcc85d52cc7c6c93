import torch.nn.functional as F


def reference(x, eps, **_):
    return F.instance_norm(x, eps=float(eps))
