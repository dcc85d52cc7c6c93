import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 2


@triton.jit
def _cumsum_rows_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    # One program per row: scan BLOCK-wide chunks left to right, carrying the
    # running total of the chunks already done.
    row = tl.program_id(0)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    carry = 0.0
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        scan = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + offs, scan, mask=mask)
        carry += tl.sum(x, axis=0)


def run(x, y, rows, cols, **_):
    _cumsum_rows_kernel[(rows,)](x, y, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
