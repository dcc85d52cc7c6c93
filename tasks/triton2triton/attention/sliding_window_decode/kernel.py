import math

import triton
import triton.language as tl

BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _sliding_window_decode_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, o_ptr,
                                  max_len, window, scale, heads, group,
                                  D: tl.constexpr, BN: tl.constexpr):
    # One program per (batch, query head): walks the visible keys
    # [n - window, n) of its sequence in blocks of BN, reading the kv head
    # that query head maps to (each query head of a group reads it again).
    pid = tl.program_id(0).to(tl.int64)
    b = pid // heads
    kv_heads = heads // group
    kvh = (pid % heads) // group
    n = tl.load(lens_ptr + b)
    lo = tl.maximum(n - window, 0)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + pid * D + rd).to(tl.float32) * scale
    kv_base = (b * kv_heads + kvh) * max_len * D

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(lo, n, BN):
        rn = start + tl.arange(0, BN)
        valid = rn < n
        offs = kv_base + rn[:, None].to(tl.int64) * D + rd[None, :]
        k = tl.load(k_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        v = tl.load(v_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new
    tl.store(o_ptr + pid * D + rd, (acc / l_i).to(tl.float16))


def run(q, k, v, seq_lens, o, batch, heads, kv_heads, max_len, window, head_dim, **_):
    grid = (batch * heads,)
    _sliding_window_decode_kernel[grid](q, k, v, seq_lens, o, max_len, window,
                                        1.0 / math.sqrt(head_dim), heads, heads // kv_heads,
                                        D=head_dim, BN=BLOCK_N,
                                        num_warps=NUM_WARPS, num_stages=NUM_STAGES)
