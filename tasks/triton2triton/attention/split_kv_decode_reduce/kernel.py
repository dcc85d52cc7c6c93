import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _split_reduce_kernel(o_part_ptr, lse_ptr, o_ptr, splits, head_dim,
                         BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    # One program per (batch*head) row: finds the largest split lse, then
    # walks the splits one at a time, weighting each partial output by
    # exp(lse - max). Empty splits (lse = -inf) get weight 0 and their
    # partial output is never used.
    bh = tl.program_id(0).to(tl.int64)
    rs = tl.arange(0, BLOCK_S)
    lse_all = tl.load(lse_ptr + bh * splits + rs, mask=rs < splits, other=float("-inf"))
    m = tl.max(lse_all, 0)
    rd = tl.arange(0, BLOCK_D)
    dmask = rd < head_dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    denom = 0.0
    for s in range(0, splits):
        lse = tl.load(lse_ptr + bh * splits + s)
        if lse > float("-inf"):
            w = tl.exp(lse - m)
            part = tl.load(o_part_ptr + (bh * splits + s) * head_dim + rd, mask=dmask, other=0.0)
            acc += w * part
            denom += w
    tl.store(o_ptr + bh * head_dim + rd, (acc / denom).to(tl.float16), mask=dmask)


def run(o_partial, lse, o, bh, splits, head_dim, **_):
    grid = (bh,)
    _split_reduce_kernel[grid](o_partial, lse, o, splits, head_dim,
                               BLOCK_S=triton.next_power_of_2(splits),
                               BLOCK_D=triton.next_power_of_2(head_dim),
                               num_warps=NUM_WARPS)
