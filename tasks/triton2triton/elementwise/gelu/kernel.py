import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    y = 0.5 * x * (1.0 + tanh)
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


def run(x, y, n, **_):
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _gelu_kernel[grid](x, y, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
