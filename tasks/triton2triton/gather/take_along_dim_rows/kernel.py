import triton
import triton.language as tl

BLOCK_SIZE = 128
NUM_WARPS = 4


@triton.jit
def _take_along_rows_kernel(x_ptr, idx_ptr, out_ptr, cols, k, BLOCK: tl.constexpr):
    # Grid: (rows, blocks of k); each program gathers BLOCK elements of one row.
    r = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < k
    src = tl.load(idx_ptr + r * k + offs, mask=mask, other=0)
    vals = tl.load(x_ptr + r * cols + src, mask=mask)
    tl.store(out_ptr + r * k + offs, vals, mask=mask)


def run(x, idx, out, rows, cols, k, **_):
    grid = (rows, triton.cdiv(k, BLOCK_SIZE))
    _take_along_rows_kernel[grid](x, idx, out, cols, k, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
