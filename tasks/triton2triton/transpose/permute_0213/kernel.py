import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _permute_0213_kernel(x_ptr, out_ptr, seq, heads, dim, BLOCK_D: tl.constexpr):
    # One program per input vector x[b, s, h, :], copied to out[b, h, s, :].
    pid = tl.program_id(0).to(tl.int64)
    h = pid % heads
    bs = pid // heads
    s = bs % seq
    b = bs // seq
    d = tl.arange(0, BLOCK_D)
    mask = d < dim
    v = tl.load(x_ptr + pid * dim + d, mask=mask)
    dst = ((b * heads + h) * seq + s) * dim
    tl.store(out_ptr + dst + d, v, mask=mask)


def run(x, out, batch, seq, heads, dim, **_):
    grid = (batch * seq * heads,)
    _permute_0213_kernel[grid](x, out, seq, heads, dim,
                               BLOCK_D=triton.next_power_of_2(dim), num_warps=NUM_WARPS)
