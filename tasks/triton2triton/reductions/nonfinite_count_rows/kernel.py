import triton
import triton.language as tl

BLOCK_N = 1024
NUM_WARPS = 4


@triton.jit
def _nonfinite_count_rows_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, walking it in BLOCK-wide chunks with an int32
    # count per lane of the values that are NaN (x != x) or +-inf.
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * cols
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < cols, other=0.0).to(tl.float32)
        bad = (x != x) | (tl.abs(x) == float("inf"))
        acc += bad.to(tl.int32)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def run(x, out, rows, cols, **_):
    _nonfinite_count_rows_kernel[(rows,)](x, out, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
