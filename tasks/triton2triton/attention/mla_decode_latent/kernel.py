import triton
import triton.language as tl

BLOCK_N = 16
NUM_WARPS = 8
NUM_STAGES = 2


@triton.jit
def _mla_decode_kernel(q_ptr, c_ptr, o_ptr, seq, latent, heads, scale,
                       BLOCK_D: tl.constexpr, BN: tl.constexpr):
    # One program per (batch, head): walks the whole latent cache of its
    # sequence with an online softmax; every head re-reads the same cache.
    pid = tl.program_id(0).to(tl.int64)
    b = pid // heads
    rd = tl.arange(0, BLOCK_D)
    dmask = rd < latent
    q = tl.load(q_ptr + pid * latent + rd, mask=dmask, other=0.0).to(tl.float32) * scale
    c_base = c_ptr + b * seq * latent

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        valid = rn < seq
        offs = rn[:, None].to(tl.int64) * latent + rd[None, :]
        c = tl.load(c_base + offs, mask=valid[:, None] & dmask[None, :], other=0.0).to(tl.float32)
        s = tl.sum(c * q[None, :], 1)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        acc = acc * alpha + tl.sum(p[:, None] * c, 0)
        m_i = m_new
    tl.store(o_ptr + pid * latent + rd, (acc / l_i).to(tl.float16), mask=dmask)


def run(q, cache, o, batch, heads, seq, latent_dim, scale, **_):
    grid = (batch * heads,)
    _mla_decode_kernel[grid](q, cache, o, seq, latent_dim, heads, float(scale),
                             BLOCK_D=triton.next_power_of_2(latent_dim), BN=BLOCK_N,
                             num_warps=NUM_WARPS, num_stages=NUM_STAGES)
