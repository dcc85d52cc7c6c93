import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _gelu_bwd_kernel(x_ptr, dy_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    # dx = dy * d/dx [0.5 * x * (1 + tanh(u))], u = k * (x + c * x^3).
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    k = 0.7978845608028654  # sqrt(2 / pi)
    c = 0.044715
    u = k * (x + c * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0
    du = k * (1.0 + 3.0 * c * x * x)
    grad = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du
    tl.store(dx_ptr + offs, (dy * grad).to(tl.float16), mask=mask)


def run(x, dy, dx, n, **_):
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _gelu_bwd_kernel[grid](x, dy, dx, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
