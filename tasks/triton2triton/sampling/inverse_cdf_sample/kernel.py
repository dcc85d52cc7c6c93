import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _inverse_cdf_kernel(x_ptr, u_ptr, out_ptr, vocab, BLOCK: tl.constexpr):
    # One program per row, three sweeps: the maximum, the total weight
    # sum(exp(x - max)), then a running inclusive cumulative sum to find the
    # first index whose cumulative weight exceeds u * total.
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * vocab
    lanes = tl.arange(0, BLOCK)
    m_acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        x = tl.load(base + offs, mask=offs < vocab, other=float("-inf"))
        m_acc = tl.maximum(m_acc, x)
    m = tl.max(m_acc, axis=0)
    s_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        x = tl.load(base + offs, mask=offs < vocab, other=float("-inf"))
        s_acc += tl.exp(x - m)
    total = tl.sum(s_acc, axis=0)
    threshold = tl.load(u_ptr + row) * total
    carry = total * 0.0
    found = vocab
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        valid = offs < vocab
        x = tl.load(base + offs, mask=valid, other=float("-inf"))
        c = carry + tl.cumsum(tl.exp(x - m), axis=0)
        found = tl.minimum(found, tl.min(tl.where(valid & (c > threshold), offs, vocab), axis=0))
        carry = tl.max(tl.where(valid, c, 0.0), axis=0)
    # Rounding can leave no index past the threshold: take the last one.
    tl.store(out_ptr + row, tl.minimum(found, vocab - 1))


def run(logits, u, tokens, rows, vocab, **_):
    _inverse_cdf_kernel[(rows,)](logits, u, tokens, vocab, BLOCK=BLOCK_SIZE,
                                 num_warps=NUM_WARPS)
