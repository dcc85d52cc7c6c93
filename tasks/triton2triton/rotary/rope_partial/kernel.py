import triton
import triton.language as tl

COPY_BLOCK = 64
NUM_WARPS = 4


@triton.jit
def _rope_partial_kernel(q_ptr, cos_ptr, sin_ptr, out_ptr, seq, heads, head_dim, rot_half,
                         BLOCK: tl.constexpr, COPY: tl.constexpr):
    # One program per (batch, position, head) vector: rotate the first
    # 2 * rot_half values, then copy the tail in COPY-wide chunks.
    pid = tl.program_id(0).to(tl.int64)
    pos = (pid // heads) % seq
    base = pid * head_dim
    i = tl.arange(0, BLOCK)
    mask = i < rot_half
    x1 = tl.load(q_ptr + base + i, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(q_ptr + base + rot_half + i, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * rot_half + i, mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos * rot_half + i, mask=mask, other=0.0)
    tl.store(out_ptr + base + i, (x1 * c - x2 * s).to(tl.bfloat16), mask=mask)
    tl.store(out_ptr + base + rot_half + i, (x2 * c + x1 * s).to(tl.bfloat16), mask=mask)
    for start in range(2 * rot_half, head_dim, COPY):
        j = start + tl.arange(0, COPY)
        jm = j < head_dim
        tl.store(out_ptr + base + j, tl.load(q_ptr + base + j, mask=jm), mask=jm)


def run(q, cos, sin, out, batch, seq, heads, head_dim, rotary_dim, **_):
    rot_half = rotary_dim // 2
    grid = (batch * seq * heads,)
    _rope_partial_kernel[grid](q, cos, sin, out, seq, heads, head_dim, rot_half,
                               BLOCK=triton.next_power_of_2(rot_half), COPY=COPY_BLOCK,
                               num_warps=NUM_WARPS)
