import torch


def reference(x, w, batch, cin, cout, length, ksize, **_):
    return torch.nn.functional.conv1d(x, w, padding=(ksize - 1) // 2)
