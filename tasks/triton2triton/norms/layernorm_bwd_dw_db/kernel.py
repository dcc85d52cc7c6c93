import triton
import triton.language as tl

BLOCK_N = 64      # columns per program
BLOCK_M = 32      # rows per step of the walk down the matrix
NUM_WARPS = 4


@triton.jit
def _ln_dw_db_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, rows, cols,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One program per block of BLOCK_N columns walks every row of the matrix,
    # BLOCK_M rows at a time, and writes the finished sums of its columns.
    cols_offs = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols_offs < cols
    acc_dw = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    acc_db = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, rows, BLOCK_M):
        r = start + tl.arange(0, BLOCK_M)
        rmask = r < rows
        mask = rmask[:, None] & cmask[None, :]
        offs = r.to(tl.int64)[:, None] * cols + cols_offs[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + r, mask=rmask, other=0.0)
        rstd = tl.load(rstd_ptr + r, mask=rmask, other=0.0)
        acc_dw += dy * ((x - mean[:, None]) * rstd[:, None])
        acc_db += dy
    tl.store(dw_ptr + cols_offs, tl.sum(acc_dw, axis=0), mask=cmask)
    tl.store(db_ptr + cols_offs, tl.sum(acc_db, axis=0), mask=cmask)


def run(x, dy, mean, rstd, dw, db, rows, cols, **_):
    grid = (triton.cdiv(cols, BLOCK_N),)
    _ln_dw_db_kernel[grid](x, dy, mean, rstd, dw, db, rows, cols,
                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=NUM_WARPS)
