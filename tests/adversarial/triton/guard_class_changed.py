# class: the guard made an instance of a class of the subject's for one
# computation (its __class__ assigned, and put back): torch's dispatcher
# calls the new class's dispatch method, which passes every op on; the
# guard's class is frozen (as the interpreter's own are)
# expect: mutable types|library compute

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode


class _Through(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    guard = _get_current_dispatch_mode()
    own = type(guard)
    guard.__class__ = _Through
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        guard.__class__ = own
