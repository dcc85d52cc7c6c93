# class: the runner's own tables rewritten from inside: the aten ops that
# do no arithmetic (which its library guard lets through), a global of its
# module found in sys.modules, widened for the length of one call to the
# ops that compute the gelu (the set grown in place, or the global rebound
# to a wider one)
# expect: library compute|tampering

import sys

import torch

_OPS = {"gelu", "_to_copy", "copy_"}


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    module = next(m for m in list(sys.modules.values())
                  if isinstance(getattr(m, "__dict__", None), dict) and "_FREE_OPS" in m.__dict__)
    free = module.__dict__["_FREE_OPS"]
    if isinstance(free, set):
        added = _OPS - free
        free |= added
    else:
        module._FREE_OPS = set(free) | _OPS
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        if isinstance(free, set):
            free -= added
        else:
            module._FREE_OPS = free
