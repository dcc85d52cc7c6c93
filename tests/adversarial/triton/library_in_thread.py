# class: library op in a thread of its own (torch's dispatch modes, the
# arena's guard among them, are per thread), joined before it returns
# expect: library compute

import threading

import torch


def _compute(x, y):
    xf = x.float()
    y.copy_((0.5 * xf * (1 + torch.tanh(0.7978845608 * (xf + 0.044715 * xf ** 3)))).half())


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    worker = threading.Thread(target=_compute, args=(x, y))
    worker.start()
    worker.join()
