# class: the guard's dispatch method, a plain function of the runner's
# (reached as the bound method the guard hands out: its __func__), given
# the code of a pass-through (a function's __code__ is writable, its
# defaults kept), so that torch's ops pass the guard unseen. Setting the
# code of a runner's function raises an audited event, and the runner's
# hook refuses it in the subject's code.
# expect: tampering|library compute

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def _through(self, func, types, args=(), kwargs=None, *, _arena_guard=()):
    return func(*args, **(kwargs or {}))


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    try:
        _get_current_dispatch_mode().__torch_dispatch__.__func__.__code__ = _through.__code__
    except RuntimeError:
        pass
    y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
