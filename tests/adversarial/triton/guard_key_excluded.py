# class: library op with the Python dispatch key excluded (where torch runs
# dispatch modes, the arena's guard among them), through torch's own guard
# object, called, not patched
# expect: tampering

import torch


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    python_key = torch._C.DispatchKeySet(torch._C.DispatchKey.Python)
    with torch._C._ExcludeDispatchKeyGuard(python_key):
        xf = x.float()
        y.copy_((0.5 * xf * (1 + torch.tanh(0.7978845608 * (xf + 0.044715 * xf ** 3)))).half())
