import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _zero_kernel(out_ptr, bins, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < bins)


@triton.jit
def _bincount_weighted_kernel(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # One global atomic add of the element's weight per element.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask, other=0)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr + v, w, mask=mask)


def run(x, w, out, n, bins, **_):
    _zero_kernel[(triton.cdiv(bins, 1024),)](out, bins, BLOCK=1024)
    _bincount_weighted_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, w, out, n, BLOCK=BLOCK_SIZE,
                                                            num_warps=NUM_WARPS)
