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
    x = tl.load(x_ptr + offs, mask=offs < n, other=0).to(tl.int64)
    tl.store(bsum_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def _scan_block_sums_kernel(bsum_ptr, boff_ptr, nblocks, BLOCK: tl.constexpr):
    # A single program turns the block sums into exclusive prefixes (the sum
    # of all earlier blocks), chunk by chunk.
    carry = tl.sum(tl.zeros([BLOCK], dtype=tl.int64), axis=0)
    for start in range(0, nblocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < nblocks
        v = tl.load(bsum_ptr + offs, mask=mask, other=0)
        tl.store(boff_ptr + offs, tl.cumsum(v, axis=0) - v + carry, mask=mask)
        carry += tl.sum(v, axis=0)


@triton.jit
def _scan_apply_kernel(x_ptr, boff_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Re-reads its block, scans it locally in int64 and adds the sum of all
    # earlier blocks; subtracting x makes the scan exclusive.
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.int64)
    before = tl.load(boff_ptr + pid)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0) - x + before, mask=mask)


def run(x, y, n, **_):
    nblocks = triton.cdiv(n, BLOCK_SIZE)
    bsum = torch.empty(nblocks, dtype=torch.int64, device=x.device)
    boff = torch.empty(nblocks, dtype=torch.int64, device=x.device)
    _block_sum_kernel[(nblocks,)](x, bsum, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _scan_block_sums_kernel[(1,)](bsum, boff, nblocks, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
    _scan_apply_kernel[(nblocks,)](x, boff, y, n, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
