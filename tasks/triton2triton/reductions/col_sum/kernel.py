import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 32
NUM_WARPS = 4


@triton.jit
def _col_sum_kernel(x_ptr, out_ptr, rows, cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One program per BLOCK_N-wide column strip, walking every row of it
    # BLOCK_M rows at a time; the BLOCK_M partial sums are folded at the end.
    pid = tl.program_id(0)
    c = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = c < cols
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, rows, BLOCK_M):
        r = start + tl.arange(0, BLOCK_M)
        mask = (r[:, None] < rows) & c_mask[None, :]
        ptrs = x_ptr + r.to(tl.int64)[:, None] * cols + c[None, :]
        acc += tl.load(ptrs, mask=mask, other=0.0)
    tl.store(out_ptr + c, tl.sum(acc, axis=0), mask=c_mask)


def run(x, out, rows, cols, **_):
    grid = (triton.cdiv(cols, BLOCK_N),)
    _col_sum_kernel[grid](x, out, rows, cols, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                          num_warps=NUM_WARPS)
