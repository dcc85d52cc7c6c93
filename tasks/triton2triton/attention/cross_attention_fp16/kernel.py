import math

import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _cross_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, LQ, LK, scale,
                            stride_qbh, stride_kbh,
                            D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # One program per block of BM query rows of one (batch, head); it walks
    # every key block of that head with an online softmax.
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    q_base = q_ptr + bh * stride_qbh
    k_base = k_ptr + bh * stride_kbh
    v_base = v_ptr + bh * stride_kbh
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < LQ, other=0.0)

    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, LK, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k_base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < LK, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where(rn[None, :] < LK, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < LK, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + bh * stride_qbh + rm[:, None] * D + rd[None, :], out.to(tl.float16),
             mask=rm[:, None] < LQ)


def run(q, k, v, o, batch, heads, q_len, k_len, head_dim, **_):
    grid = (triton.cdiv(q_len, BLOCK_M), batch * heads)
    _cross_attention_kernel[grid](q, k, v, o, q_len, k_len, 1.0 / math.sqrt(head_dim),
                                  q_len * head_dim, k_len * head_dim,
                                  D=head_dim, BM=BLOCK_M, BN=BLOCK_N,
                                  num_warps=NUM_WARPS, num_stages=NUM_STAGES)
