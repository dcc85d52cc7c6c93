import torch
import triton
import triton.language as tl

BLOCK_SIZE = 256      # chunk width of the per-row kernel
NUM_WARPS = 4
DW_BLOCK_N = 64       # columns per program of the dw kernel
DW_BLOCK_M = 32       # rows per step of the dw kernel
DW_ROW_SPLITS = 32    # row slices reduced separately, then summed


@triton.jit
def _rms_bwd_dx_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, rstd_ptr, cols, eps,
                       BLOCK: tl.constexpr):
    # One program per row; three walks over the row (mean square, dot, dx).
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    dy_row = dy_ptr + row * cols
    dx_row = dx_ptr + row * cols

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / cols + eps)
    tl.store(rstd_ptr + row, rstd)

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += (w * dy) * (x * rstd)
    c = tl.sum(acc, axis=0) / cols

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dx = (w * dy - (x * rstd) * c) * rstd
        tl.store(dx_row + offs, dx.to(tl.bfloat16), mask=mask)


@triton.jit
def _rms_bwd_dw_partial_kernel(x_ptr, dy_ptr, rstd_ptr, pdw_ptr, rows, cols, rows_per_split,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Program (column block, row slice): sums dy * x * rstd over its rows.
    pid_n = tl.program_id(0)
    split = tl.program_id(1)
    cols_offs = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols_offs < cols
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    row_start = split * rows_per_split
    row_end = tl.minimum(row_start + rows_per_split, rows)
    for start in range(row_start, row_end, BLOCK_M):
        r = start + tl.arange(0, BLOCK_M)
        rmask = r < row_end
        mask = rmask[:, None] & cmask[None, :]
        offs = r.to(tl.int64)[:, None] * cols + cols_offs[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + r, mask=rmask, other=0.0)
        acc += dy * (x * rstd[:, None])
    tl.store(pdw_ptr + split * cols + cols_offs, tl.sum(acc, axis=0), mask=cmask)


@triton.jit
def _rms_bwd_dw_final_kernel(pdw_ptr, dw_ptr, cols, splits, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, splits):
        acc += tl.load(pdw_ptr + s * cols + offs, mask=mask, other=0.0)
    tl.store(dw_ptr + offs, acc, mask=mask)


def run(x, w, dy, dx, dw, rows, cols, eps, **_):
    rstd = torch.empty(rows, dtype=torch.float32, device=x.device)
    _rms_bwd_dx_kernel[(rows,)](x, w, dy, dx, rstd, cols, eps,
                                BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    splits = DW_ROW_SPLITS
    pdw = torch.empty((splits, cols), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(cols, DW_BLOCK_N), splits)
    _rms_bwd_dw_partial_kernel[grid](x, dy, rstd, pdw, rows, cols, triton.cdiv(rows, splits),
                                     BLOCK_M=DW_BLOCK_M, BLOCK_N=DW_BLOCK_N, num_warps=4)
    _rms_bwd_dw_final_kernel[(triton.cdiv(cols, 256),)](pdw, dw, cols, splits,
                                                        BLOCK=256, num_warps=4)
