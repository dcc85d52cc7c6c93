import torch


def reference(x, running_mean, running_var, w, b, eps, **_):
    # Channels are the last dimension of x, so the vectors broadcast as is.
    return (x - running_mean) * torch.rsqrt(running_var + float(eps)) * w + b
