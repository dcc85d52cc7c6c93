# class: the runner's own flags rewritten from inside (its "the subject's
# code runs now" flag, reached through the closures of the wrappers it put
# in torch, with no frame and no audited event): the flag down, the gelu
# computed by torch's own ops, which the guard then takes for the runner's,
# the flag up again before the call returns
# expect: tampering|library compute

import torch


def _runner_state():
    """The runner's state dict, found through the cells of the functions
    it wrapped (torch._C's refused bypasses)."""
    seen, todo = set(), [getattr(torch._C, "_pop_torch_dispatch_stack")]
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, dict) and "candidate" in value:
                return value
            if callable(value):
                todo.append(value)
    raise RuntimeError("no runner state reachable")


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    state = _runner_state()
    state["candidate"] = False
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        state["candidate"] = True
