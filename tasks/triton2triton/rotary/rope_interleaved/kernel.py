import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _rope_pairs_kernel(x_ptr, pos_ptr, cos_ptr, sin_ptr, out_ptr, nheads, half,
                       BLOCK: tl.constexpr):
    # One program per (token, head) vector of head_dim = 2 * half values; the
    # even and odd elements of each pair come from two stride-2 loads.
    pid = tl.program_id(0).to(tl.int64)
    tok = pid // nheads
    pos = tl.load(pos_ptr + tok).to(tl.int64)
    base = pid * (2 * half)
    i = tl.arange(0, BLOCK)
    mask = i < half
    x0 = tl.load(x_ptr + base + 2 * i, mask=mask, other=0.0).to(tl.float32)
    x1 = tl.load(x_ptr + base + 2 * i + 1, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0)
    y0 = x0 * c - x1 * s
    y1 = x1 * c + x0 * s
    tl.store(out_ptr + base + 2 * i, y0.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + base + 2 * i + 1, y1.to(out_ptr.dtype.element_ty), mask=mask)


def run(q, k, positions, cos, sin, q_out, k_out, tokens, heads, kv_heads, head_dim,
        max_pos, **_):
    half = head_dim // 2
    block = triton.next_power_of_2(half)
    _rope_pairs_kernel[(tokens * heads,)](q, positions, cos, sin, q_out, heads, half,
                                          BLOCK=block, num_warps=NUM_WARPS)
    _rope_pairs_kernel[(tokens * kv_heads,)](k, positions, cos, sin, k_out, kv_heads, half,
                                             BLOCK=block, num_warps=NUM_WARPS)
