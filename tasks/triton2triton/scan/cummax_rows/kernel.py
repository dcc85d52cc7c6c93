import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _cummax_rows_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    # One program per row: scan BLOCK-wide chunks left to right, carrying the
    # maximum of the chunks already done.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    carry = -float("inf")
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=-float("inf"))
        scan = tl.maximum(tl.associative_scan(x, 0, _max), carry)
        tl.store(y_row + offs, scan, mask=mask)
        carry = tl.maximum(carry, tl.max(x, axis=0))


def run(x, y, rows, cols, **_):
    _cummax_rows_kernel[(rows,)](x, y, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
