import torch


def reference(x, w, batch, cin, cout, length, ksize, groups, **_):
    return torch.nn.functional.conv1d(x, w, padding=int(ksize) // 2, groups=int(groups))
