# class: library op (the output computed by a torch op)
# expect: library compute

import torch


def run(x, y, n, **_):
    xf = x.float()
    y.copy_((0.5 * xf * (1 + torch.tanh(0.7978845608 * (xf + 0.044715 * xf ** 3)))).half())
