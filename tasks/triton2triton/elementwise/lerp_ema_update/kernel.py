import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _ema_kernel(p_ptr, new_ptr, n, decay, BLOCK: tl.constexpr):
    # One small block of elements per program; p is updated in place.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    q = tl.load(new_ptr + offs, mask=mask, other=0.0)
    tl.store(p_ptr + offs, decay * p + (1.0 - decay) * q, mask=mask)


def run(p, new, n, decay, **_):
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _ema_kernel[grid](p, new, n, float(decay), BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
