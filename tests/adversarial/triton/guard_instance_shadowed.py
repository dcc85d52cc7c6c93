# class: the guard's dispatch method shadowed on the guard itself: a bound
# method of the subject's written into the guard's own attributes (its
# __dict__: no setter runs, no audited event), which torch's dispatcher
# would find before a method of the class; torch's ops then pass unseen by
# Python. The guard's is a property, which comes first.
# expect: library compute

import types

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def _through(self, func, types_, args=(), kwargs=None):
    return func(*args, **(kwargs or {}))


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    guard = _get_current_dispatch_mode()
    vars(guard)["__torch_dispatch__"] = types.MethodType(_through, guard)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        del vars(guard)["__torch_dispatch__"]
