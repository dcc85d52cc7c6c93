import torch


def reference(x, w, batch, channels, length, width, **_):
    # y[b, c, t] = sum_j w[c, j] * x[b, c, t - (width - 1) + j], zeros before t = 0.
    xp = torch.nn.functional.pad(x, (width - 1, 0))
    y = torch.zeros_like(x)
    for j in range(width):
        y += w[:, j].view(1, channels, 1) * xp[:, :, j:j + length]
    return y
