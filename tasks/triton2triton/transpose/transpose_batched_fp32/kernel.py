import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 16
NUM_WARPS = 4


@triton.jit
def _transpose_batched_kernel(x_ptr, out_ptr, rows, cols, tiles_m, tiles_n,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One program per (matrix, BLOCK_M x BLOCK_N tile), flattened on axis 0.
    pid = tl.program_id(0).to(tl.int64)
    per_batch = tiles_m * tiles_n
    b = pid // per_batch
    t = pid % per_batch
    pid_m = t // tiles_n
    pid_n = t % tiles_n
    r = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    c = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    base = b * rows * cols
    tile = tl.load(x_ptr + base + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(out_ptr + base + c[None, :] * rows + r[:, None], tile, mask=mask)


def run(x, out, batch, rows, cols, **_):
    tiles_m = triton.cdiv(rows, BLOCK_M)
    tiles_n = triton.cdiv(cols, BLOCK_N)
    grid = (batch * tiles_m * tiles_n,)
    _transpose_batched_kernel[grid](x, out, rows, cols, tiles_m, tiles_n,
                                    BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=NUM_WARPS)
