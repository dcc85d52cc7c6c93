import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _kl_div_rows_kernel(p_ptr, q_ptr, kl_ptr, cols, BLOCK: tl.constexpr):
    # One program per row. Walk 1: both row maxima. Walk 2: both sums of exp.
    # Walk 3: sum of softmax(p) * (p - q). Each walk reads both rows again.
    row = tl.program_id(0).to(tl.int64)
    p_row = p_ptr + row * cols
    q_row = q_ptr + row * cols

    mp = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    mq = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        mp = tl.maximum(mp, tl.load(p_row + offs, mask=mask, other=float("-inf")))
        mq = tl.maximum(mq, tl.load(q_row + offs, mask=mask, other=float("-inf")))
    max_p = tl.max(mp, axis=0)
    max_q = tl.max(mq, axis=0)

    sp = tl.zeros([BLOCK], dtype=tl.float32)
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        a = tl.load(p_row + offs, mask=mask, other=float("-inf"))
        b = tl.load(q_row + offs, mask=mask, other=float("-inf"))
        sp += tl.where(mask, tl.exp(a - max_p), 0.0)
        sq += tl.where(mask, tl.exp(b - max_q), 0.0)
    sum_p = tl.sum(sp, axis=0)
    lse_p = max_p + tl.log(sum_p)
    lse_q = max_q + tl.log(tl.sum(sq, axis=0))

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        a = tl.load(p_row + offs, mask=mask, other=0.0)
        b = tl.load(q_row + offs, mask=mask, other=0.0)
        prob = tl.where(mask, tl.exp(a - max_p) / sum_p, 0.0)
        acc += prob * ((a - lse_p) - (b - lse_q))
    tl.store(kl_ptr + row, tl.sum(acc, axis=0))


def run(p_logits, q_logits, kl, rows, cols, **_):
    _kl_div_rows_kernel[(rows,)](p_logits, q_logits, kl, cols,
                                 BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
