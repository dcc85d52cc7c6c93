import triton
import triton.language as tl

BLOCK_K = 256
NUM_WARPS = 4


@triton.jit
def _gemv_kernel(w_ptr, x_ptr, y_ptr, N, K, BK: tl.constexpr):
    # One program per output row: walk the row of w in BK-wide chunks.
    row = tl.program_id(0)
    w_row = w_ptr + row.to(tl.int64) * K
    acc = tl.zeros([BK], dtype=tl.float32)
    for k0 in range(0, K, BK):
        offs = k0 + tl.arange(0, BK)
        mask = offs < K
        w = tl.load(w_row + offs, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += w * x
    tl.store(y_ptr + row, tl.sum(acc, axis=0).to(tl.bfloat16))


def run(w, x, y, n, k, **_):
    _gemv_kernel[(n,)](w, x, y, n, k, BK=BLOCK_K, num_warps=NUM_WARPS)
