import triton
import triton.language as tl

BLOCK_SIZE = 128
NUM_WARPS = 4

_ZERO_BLOCK = 1024


@triton.jit
def _zero_kernel(out_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < numel)


@triton.jit
def _scatter_add_kernel(src_ptr, idx_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    # Grid: (source rows, column blocks); every element is one global atomic.
    i = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < dim
    dst = tl.load(idx_ptr + i)
    vals = tl.load(src_ptr + i.to(tl.int64) * dim + offs, mask=mask)
    tl.atomic_add(out_ptr + dst * dim + offs, vals, mask=mask)


def run(src, idx, out, rows, dim, n, **_):
    numel = rows * dim
    _zero_kernel[(triton.cdiv(numel, _ZERO_BLOCK),)](out, numel, BLOCK=_ZERO_BLOCK)
    grid = (n, triton.cdiv(dim, BLOCK_SIZE))
    _scatter_add_kernel[grid](src, idx, out, dim, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
