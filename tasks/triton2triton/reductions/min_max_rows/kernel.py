import triton
import triton.language as tl

BLOCK_N = 1024
NUM_WARPS = 4


@triton.jit
def _min_max_rows_kernel(x_ptr, min_ptr, max_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, walking it in BLOCK-wide chunks with a running
    # minimum and maximum per lane; lanes past the end hold +inf / -inf.
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * cols
    lo = tl.full([BLOCK], float("inf"), dtype=tl.float32)
    hi = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
        lo = tl.minimum(lo, tl.where(mask, x, float("inf")))
        hi = tl.maximum(hi, tl.where(mask, x, float("-inf")))
    tl.store(min_ptr + row, tl.min(lo, axis=0).to(tl.bfloat16))
    tl.store(max_ptr + row, tl.max(hi, axis=0).to(tl.bfloat16))


def run(x, row_min, row_max, rows, cols, **_):
    _min_max_rows_kernel[(rows,)](x, row_min, row_max, cols, BLOCK=BLOCK_N,
                                  num_warps=NUM_WARPS)
