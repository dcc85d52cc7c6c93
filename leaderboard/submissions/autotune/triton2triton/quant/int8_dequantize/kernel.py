import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _dequantize_kernel(q_ptr, scale_ptr, x_ptr, cols, BLOCK: tl.constexpr):
    # Grid: (rows, column blocks); each program scales one block of one row.
    row = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    base = row.to(tl.int64) * cols
    s = tl.load(scale_ptr + row)
    q = tl.load(q_ptr + base + offs, mask=mask, other=0).to(tl.float32)
    tl.store(x_ptr + base + offs, (q * s).to(tl.float16), mask=mask)


def run(q, scale, x, rows, cols, **_):
    grid = (rows, triton.cdiv(cols, BLOCK_SIZE))
    _dequantize_kernel[grid](q, scale, x, cols, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
