# class: native code of its own loaded from C++, where no audit event is
# raised: torch's AOTInductor runner (torch._C._aoti) opens the library a
# path names with dlopen, and a library's constructors run as it loads
# (here the file is no library: the class is the call). AOTInductor's
# entry points are refused to a subject's code.
# expect: tampering
import os

import torch

_LIBRARY = os.path.join(os.environ.get("TMPDIR", "/tmp"), "model.so")
with open(_LIBRARY, "wb") as f:
    f.write(b"\x7fELF (a library of the subject's)")
try:
    torch._C._aoti.AOTIModelContainerRunnerCpu(_LIBRARY, 1)
except RuntimeError as e:
    if "arena" in str(e):
        raise


def run(x, y, n, **_):
    gelu(x, y, n)
