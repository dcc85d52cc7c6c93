# Put before every candidate of this folder (it is not one): an honest
# Triton gelu, `gelu(x, y, n)`, and its kernel `_gelu`, for the candidates to
# use or misuse; and `runner_state()`, the runner's own flags read from its
# frames, for those that time their work against it.
import triton
import triton.language as tl


@triton.jit
def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t)).to(tl.float16), mask=mask)


def gelu(x, y, n):
    _gelu[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)


def runner_state():
    """The runner's `state` dict (its "candidate" flag: whether a request
    runs the subject's code now), found in its main function's frame."""
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            state = frame.f_locals.get("state")
            if frame.f_code.co_name == "main" and isinstance(state, dict) and "candidate" in state:
                return state
            frame = frame.f_back
    return {"candidate": True}


def torch_gelu_where_poisoned(seen):
    """Library compute: the outputs of every set in `seen` ({key: (x, y,
    n)}) that are poisoned (a new round's, or a check's, inputs are in),
    computed with torch."""
    import torch.nn.functional as F
    for x, y, n in list(seen.values()):
        if n > 0:
            v = y[0].item()
            if v != v:
                y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


def original_of(wrapper, name):
    """The original that one of the runner's wrappers stands for (named
    NAME), from its closure or its default arguments; the wrapper itself
    where neither gives it."""
    held = [cell.cell_contents for cell in (getattr(wrapper, "__closure__", None) or ())]
    for defaults in (getattr(wrapper, "__defaults__", None) or (),
                     (getattr(wrapper, "__kwdefaults__", None) or {}).values()):
        for value in defaults:
            held.extend(value if isinstance(value, tuple) else (value,))
    for value in held:
        if callable(value) and getattr(value, "__name__", "") == name and value is not wrapper:
            return value
    return wrapper


def runner_local(name):
    """The runner's own NAME (its launch observer, its flags): a local of
    its main function, read through the frames (the runner's functions hold
    no closure cells: what they use is out of reach as default
    arguments)."""
    import sys
    for frame in list(sys._current_frames().values()):
        while frame is not None:
            if frame.f_code.co_name == "main" and "handlers" in frame.f_locals and name in frame.f_locals:
                return frame.f_locals[name]
            frame = frame.f_back
    raise RuntimeError(f"no local {name} of the runner's reachable")


def torch_gelu_with_the_flag_down(x, y):
    """Library compute: the gelu of x into y by torch's ops, with the
    runner's "a request runs the subject's code" flag (reached through its
    frame) switched off meanwhile."""
    import torch.nn.functional as F
    state = runner_local("state")
    state["candidate"] = False
    try:
        y.copy_(F.gelu(x.float(), approximate="tanh").half())
    finally:
        state["candidate"] = True
