import math

import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _causal_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, H, S, scale,
                             stride_b, stride_h, stride_s,
                             D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = (bh // H).to(tl.int64) * stride_b + (bh % H).to(tl.int64) * stride_h
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * stride_s + rd[None, :],
                mask=rm[:, None] < S, other=0.0)

    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    # Keys past the last query row of this block are all masked: stop there.
    hi = tl.minimum(S, (start_m + 1) * BM)
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :] * stride_s + rd[:, None],
                     mask=rn[None, :] < S, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where((rm[:, None] >= rn[None, :]) & (rn[None, :] < S), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + rn[:, None] * stride_s + rd[None, :],
                    mask=rn[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * stride_s + rd[None, :], out.to(tl.float16),
             mask=rm[:, None] < S)


def run(q, k, v, o, batch, heads, seq, head_dim, **_):
    grid = (triton.cdiv(seq, BLOCK_M), batch * heads)
    _causal_attention_kernel[grid](q, k, v, o, heads, seq, 1.0 / math.sqrt(head_dim),
                                   q.stride(0), q.stride(1), q.stride(2),
                                   D=head_dim, BM=BLOCK_M, BN=BLOCK_N,
                                   num_warps=NUM_WARPS, num_stages=NUM_STAGES)
