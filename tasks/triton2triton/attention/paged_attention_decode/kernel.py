import triton
import triton.language as tl

NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _paged_decode_kernel(q_ptr, kc_ptr, vc_ptr, table_ptr, lens_ptr, o_ptr,
                         scale, heads, group, max_blocks,
                         stride_cb, stride_ct, stride_ch,
                         D: tl.constexpr, PAGE: tl.constexpr):
    # One program per (sequence, query head): walks that sequence's pages one
    # at a time, reading the kv head its query head maps to.
    pid = tl.program_id(0).to(tl.int64)
    b = pid // heads
    kvh = (pid % heads) // group
    ctx = tl.load(lens_ptr + b)
    rd = tl.arange(0, D)
    rt = tl.arange(0, PAGE)
    q = tl.load(q_ptr + pid * D + rd).to(tl.float32) * scale

    m_i = tl.zeros([1], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, ctx, PAGE):
        page = tl.load(table_ptr + b * max_blocks + start // PAGE).to(tl.int64)
        valid = start + rt < ctx
        offs = page * stride_cb + rt[:, None] * stride_ct + kvh * stride_ch + rd[None, :]
        k = tl.load(kc_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1)
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)
        v = tl.load(vc_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new
    tl.store(o_ptr + pid * D + rd, (acc / l_i).to(tl.float16))


def run(q, k_cache, v_cache, block_tables, context_lens, o,
        batch, heads, kv_heads, head_dim, block_size, max_len, scale, **_):
    max_blocks = block_tables.shape[1]
    grid = (batch * heads,)
    _paged_decode_kernel[grid](q, k_cache, v_cache, block_tables, context_lens, o,
                               float(scale), heads, heads // kv_heads, max_blocks,
                               k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
                               D=head_dim, PAGE=block_size,
                               num_warps=NUM_WARPS, num_stages=NUM_STAGES)
