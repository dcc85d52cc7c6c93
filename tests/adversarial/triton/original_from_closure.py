# class: the guard's own way out, taken from the runner's refusing wrapper
# (what it holds: torch's original _pop_torch_dispatch_stack, in its
# closure or its default arguments): the guard popped off torch's mode
# stack, gelu computed by torch's own kernels that no Python observation
# sees, the guard pushed back. Reading the wrapper's defaults is refused;
# below Python, the launch observer (CUPTI) sees kernels that are not the
# subject's Triton kernels.
# expect: tampering|library compute

import torch


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    mode = original_of(torch._C._pop_torch_dispatch_stack, "_pop_torch_dispatch_stack")(None)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        torch._C._push_on_torch_dispatch_stack(mode)
