import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _gumbel_argmax_kernel(x_ptr, g_ptr, out_ptr, vocab, temperature, BLOCK: tl.constexpr):
    # One program per row. Per-lane running maximum (strictly greater wins,
    # so each lane keeps its first index), then the lowest index among the
    # lanes holding the maximum.
    row = tl.program_id(0).to(tl.int64)
    base = row * vocab
    lanes = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    best_i = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        valid = offs < vocab
        x = tl.load(x_ptr + base + offs, mask=valid, other=0.0)
        g = tl.load(g_ptr + base + offs, mask=valid, other=0.0)
        y = tl.where(valid, x / temperature + g, float("-inf"))
        take = y > best
        best = tl.where(take, y, best)
        best_i = tl.where(take, offs, best_i)
    m = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == m, best_i, vocab), axis=0)
    tl.store(out_ptr + row, idx)


def run(logits, gumbel, tokens, rows, vocab, temperature, **_):
    _gumbel_argmax_kernel[(rows,)](logits, gumbel, tokens, vocab, float(temperature),
                                   BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
