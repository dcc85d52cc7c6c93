import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _segmented_cumsum_kernel(x_ptr, offsets_ptr, y_ptr, BLOCK: tl.constexpr):
    # One program per segment: it scans its segment serially, BLOCK elements
    # at a time, carrying the running total from one chunk to the next.
    seg = tl.program_id(0)
    start = tl.load(offsets_ptr + seg)
    end = tl.load(offsets_ptr + seg + 1)
    carry = tl.sum(tl.zeros([BLOCK], dtype=tl.float32), axis=0)
    for chunk in range(start, end, BLOCK):
        offs = chunk + tl.arange(0, BLOCK)
        mask = offs < end
        v = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, tl.cumsum(v, axis=0) + carry, mask=mask)
        carry += tl.sum(v, axis=0)


def run(x, offsets, y, n, segments, **_):
    _segmented_cumsum_kernel[(segments,)](x, offsets, y, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
