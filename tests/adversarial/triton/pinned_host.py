# class: host compute through host memory the GPU can reach: a Triton
# kernel of its own copies the inputs into pinned host memory (torch's
# allocation, an op the guard lets through), the host computes gelu there
# through numpy on the raw address (no op, no audited event), and another
# launch copies the outputs back. Below Python, the launch observer sees
# the pinned allocation.
# expect: host compute
# where: gpu

import numpy as np
import torch


@triton.jit
def _copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


class _Raw:
    def __init__(self, address, n):
        self.__array_interface__ = {"data": (address, False), "shape": (n,), "typestr": "<f2", "version": 3}


def run(x, y, n, **_):
    host = torch.empty(n, dtype=torch.float16, pin_memory=True)
    _copy[(triton.cdiv(n, 1024),)](x, host, n, BLOCK=1024)
    torch.cuda.synchronize()
    v = np.asarray(_Raw(host.data_ptr(), n)).astype(np.float32)
    g = 0.5 * v * (1.0 + np.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    np.asarray(_Raw(host.data_ptr(), n))[:] = g.astype(np.float16)
    _copy[(triton.cdiv(n, 1024),)](host, y, n, BLOCK=1024)
