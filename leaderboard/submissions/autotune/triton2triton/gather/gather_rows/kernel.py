import triton
import triton.language as tl

BLOCK_SIZE = 128
NUM_WARPS = 4


@triton.jit
def _gather_rows_kernel(table_ptr, idx_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    # Grid: (output rows, column blocks).
    i = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < dim
    src = tl.load(idx_ptr + i)
    vals = tl.load(table_ptr + src * dim + offs, mask=mask)
    tl.store(out_ptr + i.to(tl.int64) * dim + offs, vals, mask=mask)


def run(table, idx, out, rows, dim, n, **_):
    grid = (n, triton.cdiv(dim, BLOCK_SIZE))
    _gather_rows_kernel[grid](table, idx, out, dim, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
