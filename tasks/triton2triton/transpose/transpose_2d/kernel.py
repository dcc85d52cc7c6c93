import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 16
NUM_WARPS = 4


@triton.jit
def _transpose_kernel(x_ptr, out_ptr, rows, cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Each program moves one BLOCK_M x BLOCK_N tile of x to out = x.T.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    r = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    c = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r.to(tl.int64)[:, None] * cols + c[None, :], mask=mask)
    tl.store(out_ptr + c.to(tl.int64)[None, :] * rows + r[:, None], tile, mask=mask)


def run(x, out, rows, cols, **_):
    grid = (triton.cdiv(rows, BLOCK_M), triton.cdiv(cols, BLOCK_N))
    _transpose_kernel[grid](x, out, rows, cols, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                            num_warps=NUM_WARPS)
