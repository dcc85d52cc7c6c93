# class: the guard's dispatch method, as torch made it for a method written
# in a dispatch mode's class body, is a wrapper that runs whatever function
# it finds cached on the method it wraps (torch's "compiler disabled" copy:
# an attribute of a plain function, set with no audited event). Reached as
# the bound method the guard hands out (its __func__, then __wrapped__), a
# pass-through put there lets torch's ops run unseen by the guard.
# expect: library compute

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def _through(self, func, types, args=(), kwargs=None):
    return func(*args, **(kwargs or {}))


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    fn = getattr(_get_current_dispatch_mode().__torch_dispatch__, "__func__", None)
    while fn is not None:
        try:
            setattr(fn, "__dynamo_disable", _through)
        except (AttributeError, TypeError):
            pass
        fn = getattr(fn, "__wrapped__", None)
    y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
