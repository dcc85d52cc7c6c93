import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _reverse_cumsum_rows_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    # One program per row: walk BLOCK-wide chunks from the right end to the
    # left, carrying the total of the chunks already done (those to the right).
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    carry = 0.0
    num_chunks = tl.cdiv(cols, BLOCK)
    for i in range(0, num_chunks):
        start = (num_chunks - 1 - i) * BLOCK
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        total = tl.sum(x, axis=0)
        # Suffix sum inside the chunk: chunk total minus the exclusive prefix.
        suffix = total - tl.cumsum(x, axis=0) + x
        tl.store(y_row + offs, suffix + carry, mask=mask)
        carry += total


def run(x, y, rows, cols, **_):
    _reverse_cumsum_rows_kernel[(rows,)](x, y, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
