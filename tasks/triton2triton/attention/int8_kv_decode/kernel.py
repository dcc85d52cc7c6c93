import math

import triton
import triton.language as tl

BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _int8_kv_decode_kernel(q_ptr, k_ptr, v_ptr, ks_ptr, vs_ptr, o_ptr, L, scale,
                           D: tl.constexpr, BN: tl.constexpr):
    # One program per (batch, head): walks the whole int8 cache of that head,
    # dequantizing each key and value row with its own fp32 scale.
    bh = tl.program_id(0).to(tl.int64)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + bh * D + rd).to(tl.float32) * scale
    k_base = k_ptr + bh * L * D
    v_base = v_ptr + bh * L * D
    ks_base = ks_ptr + bh * L
    vs_base = vs_ptr + bh * L

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, L, BN):
        rn = start + tl.arange(0, BN)
        valid = rn < L
        offs = rn[:, None] * D + rd[None, :]
        k = tl.load(k_base + offs, mask=valid[:, None], other=0).to(tl.float32)
        k_scale = tl.load(ks_base + rn, mask=valid, other=0.0)
        k = k * k_scale[:, None]
        s = tl.sum(k * q[None, :], 1)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        v = tl.load(v_base + offs, mask=valid[:, None], other=0).to(tl.float32)
        v_scale = tl.load(vs_base + rn, mask=valid, other=0.0)
        v = v * v_scale[:, None]
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new
    out = acc / l_i
    tl.store(o_ptr + bh * D + rd, out.to(tl.float16))


def run(q, k, v, k_scale, v_scale, o, batch, heads, kv_len, head_dim, **_):
    grid = (batch * heads,)
    _int8_kv_decode_kernel[grid](q, k, v, k_scale, v_scale, o, kv_len,
                                 1.0 / math.sqrt(head_dim),
                                 D=head_dim, BN=BLOCK_N,
                                 num_warps=NUM_WARPS, num_stages=NUM_STAGES)
