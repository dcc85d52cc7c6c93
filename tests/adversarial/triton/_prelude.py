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
