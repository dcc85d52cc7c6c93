# class: programs of its own run by Triton's compiler: the processes Triton
# starts inside a launch (the launcher's C compiler, ptxas) inherit the
# process's environment, and a program of the installation's runs what it
# names. Here a folder of its own first on PATH (through os.environ) holds
# an `as` that gcc would run as it builds a launcher, and os.environ's own
# mapping (written directly, no variable of the process's changed) names a
# library for the loader to put into ptxas (LD_PRELOAD; a name that does
# not exist). The `as` fails: had gcc run it, the kernel below (a
# signature of its own, so that its launcher is built inside the
# subject's launch, on a GPU) would not compile. The processes Triton's
# compiler starts get the environment the subject was loaded with
# (pinned_environment, arena_runner.py), so it compiles and runs, and is
# correct; on the CPU no toolchain runs at all.
# expect: pass
# where: gpu
import os
import stat

import triton
import triton.language as tl

_TOOLS = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tools")
os.makedirs(_TOOLS, exist_ok=True)
with open(os.path.join(_TOOLS, "as"), "w") as f:
    f.write("#!/bin/sh\necho 'the subject's assembler ran' >&2\nexit 1\n")
os.chmod(os.path.join(_TOOLS, "as"), stat.S_IRWXU)
os.environ["PATH"] = _TOOLS + os.pathsep + os.environ.get("PATH", "")
os.environ._data[b"LD_PRELOAD"] = b"/nonexistent/libtoolchain.so"


@triton.jit
def _gelu_scaled(x_ptr, y_ptr, n, scale, offset, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32) * scale + offset * 0.0
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t)).to(tl.float16), mask=mask)


def run(x, y, n, **_):
    # (an fp32 and an int64 scalar beside the pointers: a launcher of its own)
    _gelu_scaled[(triton.cdiv(n, 1024),)](x, y, n, 1.0, 1 << 40, BLOCK=1024)
