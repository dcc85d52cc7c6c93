# class: output aliasing (the output tensor re-pointed at other memory)
# expect: NaN

import torch


def run(x, y, n, **_):
    y.set_(torch.empty_like(x))
    gelu(x, y, n)
