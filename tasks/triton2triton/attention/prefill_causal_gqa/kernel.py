import math

import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _prefill_gqa_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, heads, kv_heads, scale,
                        D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # One program per (query block, batch * head): streams the keys of the
    # kv head its query head maps to, block by block, with an online softmax.
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    b = bh // heads
    h = bh % heads
    kvh = h // (heads // kv_heads)
    # [batch, seq, heads, head_dim] and [batch, seq, kv_heads, head_dim].
    q_base = b * S * heads * D + h * D
    kv_base = b * S * kv_heads * D + kvh * D
    q_stride = heads * D
    kv_stride = kv_heads * D
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + q_base + rm[:, None].to(tl.int64) * q_stride + rd[None, :],
                mask=rm[:, None] < S, other=0.0)

    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    # Keys past the last query row of this block are all masked: stop there.
    hi = tl.minimum(S, (start_m + 1) * BM)
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k_ptr + kv_base + rn[None, :].to(tl.int64) * kv_stride + rd[:, None],
                     mask=rn[None, :] < S, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where((rm[:, None] >= rn[None, :]) & (rn[None, :] < S), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + kv_base + rn[:, None].to(tl.int64) * kv_stride + rd[None, :],
                    mask=rn[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + q_base + rm[:, None].to(tl.int64) * q_stride + rd[None, :],
             out.to(tl.float16), mask=rm[:, None] < S)


def run(q, k, v, o, batch, seq, heads, kv_heads, head_dim, **_):
    grid = (triton.cdiv(seq, BLOCK_M), batch * heads)
    _prefill_gqa_kernel[grid](q, k, v, o, seq, heads, kv_heads, 1.0 / math.sqrt(head_dim),
                              D=head_dim, BM=BLOCK_M, BN=BLOCK_N,
                              num_warps=NUM_WARPS, num_stages=NUM_STAGES)
