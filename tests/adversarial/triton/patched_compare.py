# class: patched comparison (a tensor method the judge might use, replaced)
# expect: tampering|immutable type

import torch


def run(x, y, n, **_):
    torch.Tensor.sub = lambda self, other, **k: torch.zeros_like(self)
    gelu(x, y, n)
