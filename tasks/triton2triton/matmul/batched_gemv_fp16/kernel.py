import triton
import triton.language as tl

BLOCK_K = 128
NUM_WARPS = 4


@triton.jit
def _batched_gemv_kernel(w_ptr, x_ptr, y_ptr, N, K, BK: tl.constexpr):
    # Grid: (n, b). One program per output element: the dot product of one
    # row of W[b] with x[b], walked BK columns at a time.
    row = tl.program_id(0)
    b = tl.program_id(1)
    w_base = (b.to(tl.int64) * N + row) * K
    x_base = b.to(tl.int64) * K
    acc = tl.zeros([BK], dtype=tl.float32)
    for k0 in range(0, K, BK):
        offs = k0 + tl.arange(0, BK)
        mask = offs < K
        w = tl.load(w_ptr + w_base + offs, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + x_base + offs, mask=mask, other=0.0).to(tl.float32)
        acc += w * x
    tl.store(y_ptr + b.to(tl.int64) * N + row, tl.sum(acc, axis=0).to(tl.float16))


def run(w, x, y, b, n, k, **_):
    _batched_gemv_kernel[(n, b)](w, x, y, n, k, BK=BLOCK_K, num_warps=NUM_WARPS)
