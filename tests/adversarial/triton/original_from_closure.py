# class: the guard's own way out, taken from the runner's refusing wrapper
# (its closure keeps torch's original _pop_torch_dispatch_stack): the guard
# popped off torch's mode stack, gelu computed by torch's own CUDA kernels
# that no Python observation sees, the guard pushed back. Below Python, the
# launch observer (CUPTI) sees kernels that are not the subject's Triton
# kernels.
# expect: library compute
# where: gpu

import torch


def _original(name):
    wrapper = getattr(torch._C, name)
    for cell in wrapper.__closure__ or ():
        value = cell.cell_contents
        if callable(value) and getattr(value, "__name__", "") == name:
            return value
    return wrapper


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    mode = _original("_pop_torch_dispatch_stack")(None)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        torch._C._push_on_torch_dispatch_stack(mode)
