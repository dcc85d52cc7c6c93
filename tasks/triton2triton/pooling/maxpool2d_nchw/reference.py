import torch


def reference(x, kernel, stride, padding, **_):
    # Padding counts as -inf (never the maximum); floor mode, dilation 1.
    return torch.nn.functional.max_pool2d(x, int(kernel), int(stride), int(padding))
