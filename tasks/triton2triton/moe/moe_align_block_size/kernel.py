import torch
import triton
import triton.language as tl

SCAN_BLOCK = 1024
NUM_WARPS = 4

_FILL_BLOCK = 1024


@triton.jit
def _fill_kernel(sorted_ptr, blocks_ptr, max_padded, max_blocks, sentinel,
                 BLOCK: tl.constexpr):
    # Every position starts as padding: the sentinel in sorted_ids, -1 in
    # block_experts; the later kernels overwrite the real entries.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(sorted_ptr + offs, tl.full([BLOCK], 0, tl.int32) + sentinel, mask=offs < max_padded)
    tl.store(blocks_ptr + offs, tl.full([BLOCK], -1, tl.int32), mask=offs < max_blocks)


@triton.jit
def _count_kernel(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    # One program per expert e: scans every id and counts those equal to e.
    e = tl.program_id(0)
    total = tl.sum(tl.zeros([BLOCK], dtype=tl.int32), axis=0)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ids = tl.load(ids_ptr + offs, mask=offs < n, other=-1)
        total += tl.sum((ids == e).to(tl.int32), axis=0)
    tl.store(counts_ptr + e, total)


@triton.jit
def _offsets_kernel(counts_ptr, offsets_ptr, experts, block, BLOCK_E: tl.constexpr):
    # A single program: pads every count to a multiple of `block` and writes
    # the prefix sums (offsets[0] = 0, offsets[experts] = padded total).
    e = tl.arange(0, BLOCK_E)
    mask = e < experts
    c = tl.load(counts_ptr + e, mask=mask, other=0)
    padded = (c + block - 1) // block * block
    tl.store(offsets_ptr + 1 + e, tl.cumsum(padded, axis=0), mask=mask)
    tl.store(offsets_ptr + e, tl.zeros([BLOCK_E], dtype=tl.int32), mask=e == 0)


@triton.jit
def _place_kernel(ids_ptr, offsets_ptr, sorted_ptr, blocks_ptr, n, block,
                  BLOCK: tl.constexpr):
    # One program per expert e: walks the ids in order again and gives each
    # entry equal to e the next position of e's segment (a running prefix
    # sum), then labels the segment's blocks with e.
    e = tl.program_id(0)
    seg_start = tl.load(offsets_ptr + e)
    seg_end = tl.load(offsets_ptr + e + 1)
    before = seg_start
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        ids = tl.load(ids_ptr + offs, mask=mask, other=-1)
        hit = (ids == e).to(tl.int32)
        rank = tl.cumsum(hit, axis=0)
        tl.store(sorted_ptr + before + rank - 1, offs, mask=mask & (hit != 0))
        before += tl.sum(hit, axis=0)
    first_block = seg_start // block
    end_block = seg_end // block
    for b0 in range(first_block, end_block, BLOCK):
        bb = b0 + tl.arange(0, BLOCK)
        tl.store(blocks_ptr + bb, tl.full([BLOCK], 0, tl.int32) + e, mask=bb < end_block)


def run(topk_ids, sorted_ids, block_experts, expert_offsets,
        tokens, k, experts, block_size, **_):
    n = tokens * k
    max_padded = sorted_ids.shape[0]
    max_blocks = block_experts.shape[0]
    counts = torch.empty((experts,), dtype=torch.int32, device=topk_ids.device)
    _fill_kernel[(triton.cdiv(max_padded, _FILL_BLOCK),)](
        sorted_ids, block_experts, max_padded, max_blocks, n, BLOCK=_FILL_BLOCK)
    _count_kernel[(experts,)](topk_ids, counts, n, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
    _offsets_kernel[(1,)](counts, expert_offsets, experts, block_size,
                          BLOCK_E=triton.next_power_of_2(experts))
    _place_kernel[(experts,)](topk_ids, expert_offsets, sorted_ids, block_experts, n,
                              block_size, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
