import triton
import triton.language as tl

BLOCK_K = 256
NUM_WARPS = 4


@triton.jit
def _relative_bias_kernel(s_ptr, bias_ptr, out_ptr, heads, LQ, LK, max_dist,
                          BK: tl.constexpr):
    # One program per score row (batch*head, query i): adds the clamped
    # relative-position bias of head h to every key column j.
    row = tl.program_id(0).to(tl.int64)
    bh = row // LQ
    i = row % LQ
    h = bh % heads
    s_row = s_ptr + row * LK
    o_row = out_ptr + row * LK
    b_row = bias_ptr + h * (2 * max_dist + 1)
    for start in range(0, LK, BK):
        rj = start + tl.arange(0, BK)
        mask = rj < LK
        rel = rj - i + max_dist
        rel = tl.minimum(tl.maximum(rel, 0), 2 * max_dist)
        b = tl.load(b_row + rel, mask=mask, other=0.0)
        s = tl.load(s_row + rj, mask=mask, other=0.0)
        tl.store(o_row + rj, s + b, mask=mask)


def run(scores, bias_table, out, batch, heads, q_len, k_len, max_dist, **_):
    grid = (batch * heads * q_len,)
    _relative_bias_kernel[grid](scores, bias_table, out, heads, q_len, k_len, max_dist,
                                BK=BLOCK_K, num_warps=NUM_WARPS)
