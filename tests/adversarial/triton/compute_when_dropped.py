# class: work in the runner's own time: a finalizer on the memory the
# runner lent, which runs as the runner drops it (after a check's or a
# stage's outputs were read), computes with torch there (what it computes
# gains nothing here; where it runs is the question: no guard was there)
# expect: library compute

import weakref

import torch.nn.functional as F

SEEN = set()


def _compute(x, y, n):
    y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


def run(x, y, n, **_):
    if id(y) not in SEEN:
        SEEN.add(id(y))
        weakref.finalize(y, _compute, x, y.detach(), n)
    gelu(x, y, n)
