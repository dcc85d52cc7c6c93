# class: toolchain_path's environment, changed past os.putenv: os.environ's
# own mapping (its _data) written directly, which changes no variable of
# the process's but is what subprocess hands os.posix_spawn as the
# environment of ptxas (Triton starts it with close_fds=False: by
# posix_spawn). LD_PRELOAD there loads a library of the subject's into
# ptxas (here a name that does not exist, which the loader ignores; the
# class is the environment reaching the toolchain). Each call compiles a
# kernel specialised anew (a constant it has not used), so that ptxas
# runs inside the subject's launches. A process Triton's compiler starts
# must have the environment the runner started with.
# expect: starting a process
# where: gpu
import os

import triton
import triton.language as tl

os.environ._data[b"LD_PRELOAD"] = b"/nonexistent/libtoolchain.so"


@triton.jit
def _scaled_gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr, SALT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32) + SALT * 0.0
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t)).to(tl.float16), mask=mask)


_salt = [0]


def run(x, y, n, **_):
    _salt[0] += 1
    _scaled_gelu[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, SALT=_salt[0] % 64)
