import math

import triton
import triton.language as tl

BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _tanh(x):
    # tanh(x) = 1 - 2 / (exp(2x) + 1), saturating correctly for large |x|.
    return 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0)


@triton.jit
def _softcap_decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, L, scale, softcap,
                           stride_q, stride_kv, stride_s,
                           D: tl.constexpr, BN: tl.constexpr):
    # One program per (batch, head): walks the whole KV cache of that head.
    bh = tl.program_id(0).to(tl.int64)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + bh * stride_q + rd).to(tl.float32) * scale
    k_base = k_ptr + bh * stride_kv
    v_base = v_ptr + bh * stride_kv

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, L, BN):
        rn = start + tl.arange(0, BN)
        valid = rn < L
        offs = rn[:, None] * stride_s + rd[None, :]
        k = tl.load(k_base + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1)
        s = softcap * _tanh(s / softcap)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        v = tl.load(v_base + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new
    out = acc / l_i
    tl.store(o_ptr + bh * stride_q + rd, out.to(tl.float16))


def run(q, k, v, o, batch, heads, kv_len, head_dim, softcap, **_):
    grid = (batch * heads,)
    _softcap_decode_kernel[grid](q, k, v, o, kv_len, 1.0 / math.sqrt(head_dim), float(softcap),
                                 q.stride(1), k.stride(1), k.stride(2),
                                 D=head_dim, BN=BLOCK_N,
                                 num_warps=NUM_WARPS, num_stages=NUM_STAGES)
