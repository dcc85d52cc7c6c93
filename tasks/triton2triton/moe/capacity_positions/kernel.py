import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _positions_kernel(ids_ptr, pos_ptr, tokens, capacity, BLOCK: tl.constexpr):
    # One program per expert: walk all tokens in order, keep a running count
    # of this expert's tokens and write the positions of its own tokens.
    expert = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    seen = tl.full([], 0, dtype=tl.int32)
    for start in range(0, tokens, BLOCK):
        offs = start + lanes
        valid = offs < tokens
        ids = tl.load(ids_ptr + offs, mask=valid, other=-1)
        hit = (ids == expert).to(tl.int32)
        pos = seen + tl.cumsum(hit, axis=0) - 1
        pos = tl.where(pos < capacity, pos, -1)
        tl.store(pos_ptr + offs, pos, mask=valid & (hit == 1))
        seen += tl.sum(hit, axis=0)


def run(expert_ids, positions, tokens, experts, capacity, **_):
    _positions_kernel[(experts,)](expert_ids, positions, tokens, capacity, BLOCK=BLOCK_SIZE,
                                  num_warps=NUM_WARPS)
