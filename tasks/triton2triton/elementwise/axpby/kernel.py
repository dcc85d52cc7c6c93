import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _scal_kernel(x_ptr, z_ptr, n, alpha, BLOCK: tl.constexpr):
    # z = alpha * x
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(z_ptr + offs, alpha * x, mask=mask)


@triton.jit
def _axpy_kernel(y_ptr, z_ptr, n, beta, BLOCK: tl.constexpr):
    # z += beta * y
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    z = tl.load(z_ptr + offs, mask=mask, other=0.0)
    tl.store(z_ptr + offs, z + beta * y, mask=mask)


def run(x, y, z, n, alpha, beta, **_):
    # Built from two BLAS-1 style passes: scale x into z, then add beta * y.
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _scal_kernel[grid](x, z, n, float(alpha), BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _axpy_kernel[grid](y, z, n, float(beta), BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
