import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _exp_clamp_kernel(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    # One small block of elements per program.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    v = tl.minimum(tl.maximum(x, lo), hi)
    tl.store(y_ptr + offs, tl.exp(v), mask=mask)


def run(x, y, n, lo, hi, **_):
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _exp_clamp_kernel[grid](x, y, n, float(lo), float(hi), BLOCK=BLOCK_SIZE,
                            num_warps=NUM_WARPS)
