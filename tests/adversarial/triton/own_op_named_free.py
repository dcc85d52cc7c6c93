# class: library compute below the guard: an op of the subject's own
# namespace named like one the guard lets through (a view), whose kernel,
# registered for every device, computes the outputs with torch while the
# guard passes the op on; the call launches a Triton kernel on one
# element, for show
# expect: library compute: own_ops::view

import torch
import torch.nn.functional as F

_LIBRARY = torch.library.Library("own_ops", "DEF")  # held: a library dropped takes its kernels with it
_LIBRARY.define("view(Tensor x, Tensor(a!) y, int n) -> ()")


def _view(x, y, n):
    y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


_LIBRARY.impl("view", _view, "CPU")
_LIBRARY.impl("view", _view, "CUDA")


def run(x, y, n, **_):
    torch.ops.own_ops.view(x, y, n)
    gelu(x, y, min(n, 1))
