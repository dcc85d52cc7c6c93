# class: library compute below the guard: a kernel of the subject's own
# registered in torch's dispatcher for an op that does no arithmetic (a
# view: the guard passes it on, and while it does the guard is off),
# through a library torch made at its import if one takes any key, else a
# new one (the Python dispatcher is refused alike); the kernel computes
# the outputs with torch and the call launches a Triton kernel on one
# element, for show
# expect: registers a kernel of its own

import sys

import torch
import torch.nn.functional as F

JOB = {}


def _narrow(self, dim, start, length):
    if JOB:
        x, y, n = JOB["now"]
        y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))
    return torch.ops.aten.slice.Tensor(self, dim, start, start + length)


def _a_library_of_torchs():
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, torch.library.Library) and value.ns == "aten" and \
                    value.kind == "IMPL" and not value.dispatch_key:
                return value
    return torch.library.Library("aten", "IMPL")


_LIBRARY = _a_library_of_torchs()  # held: a library dropped takes its kernels with it
_LIBRARY.impl("narrow", _narrow, "CPU")
_LIBRARY.impl("narrow", _narrow, "CUDA")


def run(x, y, n, **_):
    JOB["now"] = (x, y, n)
    x.narrow(0, 0, 1)
    gelu(x, y, min(n, 1))
