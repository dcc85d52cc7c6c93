import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024    # elements per block of the first and last pass
SCAN_BLOCK = 1024    # chunk width of the single-program scan of block sums
NUM_WARPS = 4


@triton.jit
def _block_sum_kernel(x_ptr, bsum_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(bsum_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def _scan_block_sums_kernel(bsum_ptr, bprefix_ptr, nblocks, BLOCK: tl.constexpr):
    # A single program turns the block sums into inclusive prefixes, chunk by chunk.
    carry = tl.sum(tl.zeros([BLOCK], dtype=tl.float32), axis=0)
    for start in range(0, nblocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < nblocks
        v = tl.load(bsum_ptr + offs, mask=mask, other=0.0)
        tl.store(bprefix_ptr + offs, tl.cumsum(v, axis=0) + carry, mask=mask)
        carry += tl.sum(v, axis=0)


@triton.jit
def _scan_apply_kernel(x_ptr, bprefix_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Re-reads its block, scans it locally and adds the sum of all earlier blocks.
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    before = tl.load(bprefix_ptr + pid - 1, mask=pid > 0, other=0.0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0) + before, mask=mask)


def run(x, y, n, **_):
    nblocks = triton.cdiv(n, BLOCK_SIZE)
    bsum = torch.empty(nblocks, dtype=torch.float32, device=x.device)
    bprefix = torch.empty(nblocks, dtype=torch.float32, device=x.device)
    _block_sum_kernel[(nblocks,)](x, bsum, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _scan_block_sums_kernel[(1,)](bsum, bprefix, nblocks, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
    _scan_apply_kernel[(nblocks,)](x, bprefix, y, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
