# class: library compute below the guard: a tensor subclass whose own
# __torch_dispatch__ (which torch runs after the runner's mode has passed
# the op on, the mode off) computes the outputs with torch when a view of
# it is taken; the call launches a Triton kernel on one element, for show
# expect: tensor subclass's own dispatch

import torch
import torch.nn.functional as F
from torch.utils._pytree import tree_map

JOB = {}


class _Carrier(torch.Tensor):
    @staticmethod
    def __new__(cls, inner):
        return torch.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype, device=inner.device)

    def __init__(self, inner):
        self.inner = inner

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        x, y, n = JOB["now"]
        y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))
        unwrap = lambda t: t.inner if isinstance(t, _Carrier) else t
        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


def run(x, y, n, **_):
    JOB["now"] = (x, y, n)
    _Carrier(x).view(-1)
    gelu(x, y, min(n, 1))
