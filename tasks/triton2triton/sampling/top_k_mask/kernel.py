import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _order_key(x):
    # fp32 -> int64 key in [0, 2^32) that orders like the value (+0 == -0).
    bits = x.to(tl.int32, bitcast=True)
    key = tl.where(bits < 0, bits ^ 0x7FFFFFFF, bits)
    key = tl.where(x == 0.0, 0, key)
    return key.to(tl.int64) + 2147483648


@triton.jit
def _top_k_mask_kernel(x_ptr, out_ptr, vocab, k, BLOCK: tl.constexpr):
    # One program per row. The key of the k-th largest value is built bit by
    # bit from the top: a bit is kept when at least k keys are >= the
    # candidate (32 counting sweeps of the row). Then one sweep counts the
    # keys above it, and a last one keeps those plus the first
    # (k - count above) keys equal to it, in index order.
    row = tl.program_id(0).to(tl.int64)
    base = row * vocab
    lanes = tl.arange(0, BLOCK)
    one = tl.full([], 1, dtype=tl.int64)
    thresh = tl.full([], 0, dtype=tl.int64)
    for i in range(32):
        cand = thresh | (one << (31 - i))
        cnt = tl.full([], 0, dtype=tl.int32)
        for start in range(0, vocab, BLOCK):
            offs = start + lanes
            valid = offs < vocab
            x = tl.load(x_ptr + base + offs, mask=valid, other=0.0)
            cnt += tl.sum((valid & (_order_key(x) >= cand)).to(tl.int32), axis=0)
        thresh = tl.where(cnt >= k, cand, thresh)
    above = tl.full([], 0, dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        valid = offs < vocab
        x = tl.load(x_ptr + base + offs, mask=valid, other=0.0)
        above += tl.sum((valid & (_order_key(x) > thresh)).to(tl.int32), axis=0)
    need = k - above
    seen = tl.full([], 0, dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        valid = offs < vocab
        x = tl.load(x_ptr + base + offs, mask=valid, other=0.0)
        key = _order_key(x)
        eq = (valid & (key == thresh)).to(tl.int32)
        rank = seen + tl.cumsum(eq, axis=0)
        keep = (key > thresh) | ((eq == 1) & (rank <= need))
        tl.store(out_ptr + base + offs, tl.where(keep, x, float("-inf")), mask=valid)
        seen += tl.sum(eq, axis=0)


def run(logits, out, rows, vocab, k, **_):
    _top_k_mask_kernel[(rows,)](logits, out, vocab, k, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
