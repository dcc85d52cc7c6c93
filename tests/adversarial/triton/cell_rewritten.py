# class: the runner's own code rewired from inside: the closure cell through
# which its "call" request reaches the function that runs the subject's code
# under the guard (a function's __closure__ is readable, a cell's contents
# writable, with no audited event), found through the runner's frame and
# pointed at a plain call: from the next request on, the subject's code
# runs with no guard, no launch watch and no seal; torch's gelu then
# expect: library compute|tampering

import sys

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def _plain(thunk, *_, **__):
    return thunk()


def _rewire():
    """Whether the call request's cell now points at a plain call."""
    for frame in list(sys._current_frames().values()):
        while frame is not None:
            handlers = frame.f_locals.get("handlers")
            if frame.f_code.co_name == "main" and handlers is not None:
                call = handlers["call"]
                for name, cell in zip(call.__code__.co_freevars, call.__closure__ or ()):
                    if name == "run_subject":
                        cell.cell_contents = _plain
                        return True
            frame = frame.f_back
    return False


def run(x, y, n, **_):
    if _get_current_dispatch_mode() is None:
        gelu(x, y, 0)  # a Triton launch, for show
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
        return
    if _rewire():
        gelu(x, y, n)  # this once, under the guard, honestly
    else:
        # Where the rewiring did not take, the library all the same.
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
