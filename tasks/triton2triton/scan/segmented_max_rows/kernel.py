import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _seg_max_combine(a_val, a_flag, b_val, b_flag):
    # (a then b): b's running max ignores a when a segment starts inside b.
    val = tl.where(b_flag != 0, b_val, tl.maximum(a_val, b_val))
    return val, a_flag | b_flag


@triton.jit
def _segmented_max_rows_kernel(x_ptr, flags_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    # One program per row: scan BLOCK-wide chunks left to right; the running
    # maximum of the open segment is carried into the chunk's elements that
    # come before its first segment start.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    f_row = flags_ptr + row * cols
    y_row = y_ptr + row * cols
    carry = -float("inf")
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=-float("inf"))
        f = tl.load(f_row + offs, mask=mask, other=0).to(tl.int32)
        val, seen = tl.associative_scan((x, f), 0, _seg_max_combine)
        val = tl.where(seen != 0, val, tl.maximum(val, carry))
        tl.store(y_row + offs, val, mask=mask)
        last = tl.minimum(start + BLOCK, cols) - 1
        carry = tl.max(tl.where(offs == last, val, -float("inf")), axis=0)


def run(x, flags, y, rows, cols, seg, **_):
    _segmented_max_rows_kernel[(rows,)](x, flags, y, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
