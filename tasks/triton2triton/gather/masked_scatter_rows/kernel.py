import torch
import triton
import triton.language as tl

SCAN_BLOCK = 1024
BLOCK_SIZE = 128
NUM_WARPS = 4


@triton.jit
def _rank_kernel(mask_ptr, rank_ptr, rows, BLOCK: tl.constexpr):
    # A single program walks the whole mask: rank[r] = the number of set
    # entries before row r (an exclusive running prefix sum).
    before = tl.sum(tl.zeros([BLOCK], dtype=tl.int32), axis=0)
    for start in range(0, rows, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = tl.load(mask_ptr + offs, mask=offs < rows, other=0).to(tl.int32)
        incl = tl.cumsum(m, axis=0)
        tl.store(rank_ptr + offs, before + incl - m, mask=offs < rows)
        before += tl.sum(m, axis=0)


@triton.jit
def _scatter_rows_kernel(dst_ptr, mask_ptr, rank_ptr, src_ptr, out_ptr, dim,
                         BLOCK: tl.constexpr):
    # Grid: (rows, column blocks). A selected row copies the next unused
    # source row, any other row keeps its own dst values.
    r = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    cmask = cols < dim
    sel = tl.load(mask_ptr + r).to(tl.int32)
    if sel != 0:
        rk = tl.load(rank_ptr + r).to(tl.int64)
        vals = tl.load(src_ptr + rk * dim + cols, mask=cmask)
    else:
        vals = tl.load(dst_ptr + r * dim + cols, mask=cmask)
    tl.store(out_ptr + r * dim + cols, vals, mask=cmask)


def run(dst, mask, src, out, rows, dim, density, **_):
    rank = torch.empty((rows,), dtype=torch.int32, device=dst.device)
    _rank_kernel[(1,)](mask, rank, rows, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
    grid = (rows, triton.cdiv(dim, BLOCK_SIZE))
    _scatter_rows_kernel[grid](dst, mask, rank, src, out, dim, BLOCK=BLOCK_SIZE,
                               num_warps=NUM_WARPS)
