import torch
import triton
import triton.language as tl

BLOCK_SIZE = 256      # chunk width of the per-row kernel
NUM_WARPS = 4
DW_BLOCK_N = 64       # columns per program of the dw/db kernel
DW_BLOCK_M = 32       # rows per step of the dw/db kernel
DW_ROW_SPLITS = 32    # row slices reduced separately, then summed


@triton.jit
def _ln_bwd_dx_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, mean_ptr, rstd_ptr, cols, eps,
                      BLOCK: tl.constexpr):
    # One program per row: recompute mean and rstd, then dx. Four walks over the row.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    dy_row = dy_ptr + row * cols
    dx_row = dx_ptr + row * cols

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + offs, mask=offs < cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / cols

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / cols + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    acc_xg = tl.zeros([BLOCK], dtype=tl.float32)
    acc_g = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0)
        g = w * dy
        acc_xg += (x - mean) * rstd * g
        acc_g += g
    c1 = tl.sum(acc_xg, axis=0) / cols
    c2 = tl.sum(acc_g, axis=0) / cols

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0)
        xhat = (x - mean) * rstd
        dx = (w * dy - xhat * c1 - c2) * rstd
        tl.store(dx_row + offs, dx.to(tl.float16), mask=mask)


@triton.jit
def _ln_bwd_dwdb_partial_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, pdw_ptr, pdb_ptr,
                                rows, cols, rows_per_split,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Program (column block, row slice): sums dy * xhat and dy over its rows.
    pid_n = tl.program_id(0)
    split = tl.program_id(1)
    cols_offs = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols_offs < cols
    acc_dw = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    acc_db = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    row_start = split * rows_per_split
    row_end = tl.minimum(row_start + rows_per_split, rows)
    for start in range(row_start, row_end, BLOCK_M):
        r = start + tl.arange(0, BLOCK_M)
        rmask = r < row_end
        mask = rmask[:, None] & cmask[None, :]
        offs = r.to(tl.int64)[:, None] * cols + cols_offs[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + r, mask=rmask, other=0.0)
        rstd = tl.load(rstd_ptr + r, mask=rmask, other=0.0)
        acc_dw += dy * ((x - mean[:, None]) * rstd[:, None])
        acc_db += dy
    out = split * cols + cols_offs
    tl.store(pdw_ptr + out, tl.sum(acc_dw, axis=0), mask=cmask)
    tl.store(pdb_ptr + out, tl.sum(acc_db, axis=0), mask=cmask)


@triton.jit
def _ln_bwd_dwdb_final_kernel(pdw_ptr, pdb_ptr, dw_ptr, db_ptr, cols, splits,
                              BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    acc_dw = tl.zeros([BLOCK], dtype=tl.float32)
    acc_db = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, splits):
        acc_dw += tl.load(pdw_ptr + s * cols + offs, mask=mask, other=0.0)
        acc_db += tl.load(pdb_ptr + s * cols + offs, mask=mask, other=0.0)
    tl.store(dw_ptr + offs, acc_dw, mask=mask)
    tl.store(db_ptr + offs, acc_db, mask=mask)


def run(x, w, dy, dx, dw, db, rows, cols, eps, **_):
    mean = torch.empty(rows, dtype=torch.float32, device=x.device)
    rstd = torch.empty(rows, dtype=torch.float32, device=x.device)
    _ln_bwd_dx_kernel[(rows,)](x, w, dy, dx, mean, rstd, cols, eps,
                               BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    splits = DW_ROW_SPLITS
    pdw = torch.empty((splits, cols), dtype=torch.float32, device=x.device)
    pdb = torch.empty((splits, cols), dtype=torch.float32, device=x.device)
    rows_per_split = triton.cdiv(rows, splits)
    grid = (triton.cdiv(cols, DW_BLOCK_N), splits)
    _ln_bwd_dwdb_partial_kernel[grid](x, dy, mean, rstd, pdw, pdb, rows, cols, rows_per_split,
                                      BLOCK_M=DW_BLOCK_M, BLOCK_N=DW_BLOCK_N, num_warps=4)
    _ln_bwd_dwdb_final_kernel[(triton.cdiv(cols, 256),)](pdw, pdb, dw, db, cols, splits,
                                                         BLOCK=256, num_warps=4)
