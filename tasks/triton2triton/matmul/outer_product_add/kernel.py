import triton
import triton.language as tl

BLOCK_N = 256
NUM_WARPS = 4


@triton.jit
def _outer_add_kernel(a_ptr, b_ptr, c_ptr, out_ptr, N, BN: tl.constexpr):
    # One program per row i: out[i, :] = a[i] * b + c[i, :], BN columns at a time.
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    ai = tl.load(a_ptr + row).to(tl.float32)
    for n0 in range(0, N, BN):
        offs = n0 + tl.arange(0, BN)
        mask = offs < N
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        c = tl.load(c_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + base + offs, (ai * b + c).to(tl.float16), mask=mask)


def run(a, b, c, out, m, n, **_):
    _outer_add_kernel[(m,)](a, b, c, out, n, BN=BLOCK_N, num_warps=NUM_WARPS)
