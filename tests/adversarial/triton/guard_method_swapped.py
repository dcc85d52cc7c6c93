# class: the guard's own dispatch method replaced on its class for the
# length of one computation (a type's attribute is set with no audited
# event) and put back before the call returns, so that the runner's seal
# finds it as it was: torch's ops pass unseen by Python. The runner's
# classes are frozen (as the interpreter's own are): setting it fails.
# expect: immutable type|library compute

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def _through(self, func, types, args=(), kwargs=None):
    return func(*args, **(kwargs or {}))


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    guard_class = type(_get_current_dispatch_mode())
    own = guard_class.__dict__["__torch_dispatch__"]
    type.__setattr__(guard_class, "__torch_dispatch__", _through)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        type.__setattr__(guard_class, "__torch_dispatch__", own)
