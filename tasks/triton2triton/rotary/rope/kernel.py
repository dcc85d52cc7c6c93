import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _rope_kernel(q_ptr, cos_ptr, sin_ptr, out_ptr, seq, heads, half,
                 BLOCK: tl.constexpr):
    # One program per (batch, position, head) vector of head_dim = 2 * half values.
    pid = tl.program_id(0).to(tl.int64)
    pos = (pid // heads) % seq
    base = pid * (2 * half)
    i = tl.arange(0, BLOCK)
    mask = i < half
    x1 = tl.load(q_ptr + base + i, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(q_ptr + base + half + i, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0)
    tl.store(out_ptr + base + i, (x1 * c - x2 * s).to(tl.float16), mask=mask)
    tl.store(out_ptr + base + half + i, (x2 * c + x1 * s).to(tl.float16), mask=mask)


def run(q, cos, sin, out, batch, seq, heads, head_dim, **_):
    half = head_dim // 2
    grid = (batch * seq * heads,)
    _rope_kernel[grid](q, cos, sin, out, seq, heads, half,
                       BLOCK=triton.next_power_of_2(half), num_warps=NUM_WARPS)
