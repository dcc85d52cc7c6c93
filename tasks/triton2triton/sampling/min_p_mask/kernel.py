import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _min_p_kernel(x_ptr, out_ptr, vocab, min_p, BLOCK: tl.constexpr):
    # One program per row: a pass for the max, a pass for the softmax
    # denominator, and a pass that compares each probability with
    # min_p * (largest probability) and writes the result.
    row = tl.program_id(0).to(tl.int64)
    base = row * vocab
    lanes = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        x = tl.load(x_ptr + base + offs, mask=offs < vocab, other=float("-inf"))
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        x = tl.load(x_ptr + base + offs, mask=offs < vocab, other=float("-inf"))
        acc += tl.exp(x - row_max)
    denom = tl.sum(acc, axis=0)
    p_max = 1.0 / denom
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        valid = offs < vocab
        x = tl.load(x_ptr + base + offs, mask=valid, other=float("-inf"))
        p = tl.exp(x - row_max) / denom
        tl.store(out_ptr + base + offs, tl.where(p < min_p * p_max, float("-inf"), x), mask=valid)


def run(logits, out, rows, vocab, min_p, **_):
    _min_p_kernel[(rows,)](logits, out, vocab, float(min_p), BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
