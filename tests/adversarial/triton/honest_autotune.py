# class: honest control (Triton's autotuner picks the block size: it times
# the kernel's configurations itself, clearing the L2 between runs)
# expect: pass
# where: gpu

import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 512}), triton.Config({"BLOCK": 2048})], key=["n"])
@triton.jit
def _gelu_tuned(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t)).to(tl.float16), mask=mask)


def run(x, y, n, **_):
    _gelu_tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
