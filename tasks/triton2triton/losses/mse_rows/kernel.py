import triton
import triton.language as tl

BLOCK_SIZE = 512
NUM_WARPS = 4


@triton.jit
def _mse_rows_kernel(a_ptr, b_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, walking both rows in BLOCK-wide chunks.
    row = tl.program_id(0).to(tl.int64)
    a_row = a_ptr + row * cols
    b_row = b_ptr + row * cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        a = tl.load(a_row + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = a - b
        acc += d * d
    tl.store(out_ptr + row, tl.sum(acc, axis=0) / cols)


def run(pred, target, loss, rows, cols, **_):
    _mse_rows_kernel[(rows,)](pred, target, loss, cols, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
