# class: cache by buffer address (the first answer given again)
# expect: outside|NaN|library compute

import torch

CACHE = {}


def run(x, y, n, **_):
    key = (y.data_ptr(), n)
    if key in CACHE:
        _gelu[(1,)](x, y, 0, BLOCK=1024)  # a launch, for show
        y.copy_(CACHE[key])
        return
    gelu(x, y, n)
    CACHE[key] = y.clone()
    _gelu[(1,)](x, y, 0, BLOCK=1024)
