import torch.nn.functional as F


def reference(x, w, b, num_groups, eps, **_):
    return F.group_norm(x, int(num_groups), w, b, eps)
