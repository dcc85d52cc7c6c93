import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _zero_kernel(counts_ptr, experts, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(counts_ptr + offs, tl.zeros([BLOCK], dtype=tl.int32), mask=offs < experts)


@triton.jit
def _count_kernel(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    # One global atomic increment per routed (token, slot) pair.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ids = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + ids, tl.full([BLOCK], 1, dtype=tl.int32), mask=mask)


@triton.jit
def _offsets_kernel(counts_ptr, offsets_ptr, experts, block, BLOCK_E: tl.constexpr):
    # A single program: pad every count up to a multiple of `block` and take
    # the exclusive prefix sum.
    e = tl.arange(0, BLOCK_E)
    mask = e < experts
    c = tl.load(counts_ptr + e, mask=mask, other=0)
    padded = (c + block - 1) // block * block
    tl.store(offsets_ptr + e, tl.cumsum(padded, axis=0) - padded, mask=mask)


def run(topk_ids, counts, offsets, tokens, k, experts, block, **_):
    n = tokens * k
    _zero_kernel[(triton.cdiv(experts, 1024),)](counts, experts, BLOCK=1024)
    _count_kernel[(triton.cdiv(n, BLOCK_SIZE),)](topk_ids, counts, n, BLOCK=BLOCK_SIZE,
                                                 num_warps=NUM_WARPS)
    _offsets_kernel[(1,)](counts, offsets, experts, block,
                          BLOCK_E=triton.next_power_of_2(experts))
