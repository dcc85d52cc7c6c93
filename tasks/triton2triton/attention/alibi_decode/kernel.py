import math

import triton
import triton.language as tl

BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _alibi_decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, L, scale, heads, pow2,
                         D: tl.constexpr, BN: tl.constexpr):
    # One program per (batch, head): walks that head's whole cache in blocks
    # of BN keys, adding the head's ALiBi bias slope * (j - (L - 1)).
    bh = tl.program_id(0).to(tl.int64)
    h = (bh % heads).to(tl.float32)
    slope = tl.where(h < pow2,
                     tl.exp2(-8.0 * (h + 1.0) / pow2),
                     tl.exp2(-4.0 * (2.0 * (h - pow2) + 1.0) / pow2))
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + bh * D + rd).to(tl.float32) * scale
    kv_base = bh * L * D

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, L, BN):
        rn = start + tl.arange(0, BN)
        valid = rn < L
        offs = kv_base + rn[:, None] * D + rd[None, :]
        k = tl.load(k_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1) + slope * (rn - (L - 1)).to(tl.float32)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        v = tl.load(v_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new
    tl.store(o_ptr + bh * D + rd, (acc / l_i).to(tl.float16))


def run(q, k, v, o, batch, heads, seq, head_dim, **_):
    # Largest power of two <= heads: the slopes' base (see the instructions).
    pow2 = 1 << (int(heads).bit_length() - 1)
    grid = (batch * heads,)
    _alibi_decode_kernel[grid](q, k, v, o, seq, 1.0 / math.sqrt(head_dim), heads, pow2,
                               D=head_dim, BN=BLOCK_N,
                               num_warps=NUM_WARPS, num_stages=NUM_STAGES)
