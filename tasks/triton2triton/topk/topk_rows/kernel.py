import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _topk_rows_kernel(x_ptr, out_ptr, cols, K: tl.constexpr, BLOCK_K: tl.constexpr,
                      BLOCK: tl.constexpr):
    # One program per row. `best` holds the K largest values seen so far
    # (unsorted; slots past K hold +inf so they are never the minimum).
    # Each chunk of columns is merged by repeatedly moving its maximum into
    # the slot of the current minimum while that improves the set.
    row = tl.program_id(0).to(tl.int64)
    kk = tl.arange(0, BLOCK_K)
    cc = tl.arange(0, BLOCK)
    best = tl.where(kk < K, -float("inf"), float("inf"))
    for start in range(0, cols, BLOCK):
        offs = start + cc
        v = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=-float("inf"))
        m = tl.max(v, axis=0)
        lo = tl.min(best, axis=0)
        while m > lo:
            vi = tl.min(tl.where(v == m, cc, BLOCK), axis=0)
            bi = tl.min(tl.where(best == lo, kk, BLOCK_K), axis=0)
            best = tl.where(kk == bi, m, best)
            v = tl.where(cc == vi, -float("inf"), v)
            m = tl.max(v, axis=0)
            lo = tl.min(best, axis=0)
    # Emit the K values in descending order.
    best = tl.where(kk < K, best, -float("inf"))
    out = tl.zeros([BLOCK_K], dtype=tl.float32)
    for i in range(K):
        m = tl.max(best, axis=0)
        bi = tl.min(tl.where(best == m, kk, BLOCK_K), axis=0)
        out = tl.where(kk == i, m, out)
        best = tl.where(kk == bi, -float("inf"), best)
    tl.store(out_ptr + row * K + kk, out, mask=kk < K)


def run(x, values, rows, cols, k, **_):
    _topk_rows_kernel[(rows,)](x, values, cols, K=k, BLOCK_K=triton.next_power_of_2(k),
                               BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
