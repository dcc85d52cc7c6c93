import math
import os

import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
NUM_WARPS = 4
NUM_STAGES = 2

# Triton's CPU interpreter (TRITON_INTERPRET=1) multiplies bf16 tiles in tl.dot
# as raw 16-bit integers; under the interpreter only, tiles are widened to fp32
# first. Compiled GPU kernels always take the bf16 tensor-core path.
_WIDEN_FOR_INTERPRETER = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


@triton.jit
def _bidir_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, H, S, scale,
                            stride_b, stride_s, stride_h,
                            D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                            WIDEN: tl.constexpr):
    # One program per block of BM query rows of one (batch, head); every
    # query sees every key (no mask other than the sequence end).
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = (bh // H).to(tl.int64) * stride_b + (bh % H).to(tl.int64) * stride_h
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None].to(tl.int64) * stride_s + rd[None, :],
                mask=rm[:, None] < S, other=0.0)

    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :].to(tl.int64) * stride_s + rd[:, None],
                     mask=rn[None, :] < S, other=0.0)
        if WIDEN:
            s = tl.dot(q.to(tl.float32), kt.to(tl.float32)) * scale
        else:
            s = tl.dot(q, kt) * scale
        s = tl.where(rn[None, :] < S, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + rn[:, None].to(tl.int64) * stride_s + rd[None, :],
                    mask=rn[:, None] < S, other=0.0)
        if WIDEN:
            pv = tl.dot(p.to(tl.bfloat16).to(tl.float32), v.to(tl.float32))
        else:
            pv = tl.dot(p.to(tl.bfloat16), v)
        acc = acc * alpha[:, None] + pv
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None].to(tl.int64) * stride_s + rd[None, :],
             out.to(tl.bfloat16), mask=rm[:, None] < S)


def run(q, k, v, o, batch, seq, heads, head_dim, **_):
    grid = (triton.cdiv(seq, BLOCK_M), batch * heads)
    _bidir_attention_kernel[grid](q, k, v, o, heads, seq, 1.0 / math.sqrt(head_dim),
                                  q.stride(0), q.stride(1), q.stride(2),
                                  D=head_dim, BM=BLOCK_M, BN=BLOCK_N, WIDEN=_WIDEN_FOR_INTERPRETER,
                                  num_warps=NUM_WARPS, num_stages=NUM_STAGES)
