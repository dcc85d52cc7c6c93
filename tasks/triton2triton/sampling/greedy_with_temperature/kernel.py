import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024
BLOCK_PREV = 128
NUM_WARPS = 4


@triton.jit
def _copy_rows_kernel(x_ptr, y_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < vocab
        tl.store(y_ptr + row * vocab + offs, tl.load(x_ptr + row * vocab + offs, mask=mask),
                 mask=mask)


@triton.jit
def _penalize_kernel(x_ptr, prev_ptr, y_ptr, vocab, n_prev, penalty, BLOCK_P: tl.constexpr):
    # Overwrites the scratch copy at this row's previous ids with the
    # penalized logit (a repeated id writes the same value again).
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, n_prev, BLOCK_P):
        offs = start + tl.arange(0, BLOCK_P)
        mask = offs < n_prev
        ids = tl.load(prev_ptr + row * n_prev + offs, mask=mask, other=0).to(tl.int64)
        x = tl.load(x_ptr + row * vocab + ids, mask=mask, other=0.0)
        pen = tl.where(x > 0, x / penalty, x * penalty)
        tl.store(y_ptr + row * vocab + ids, pen, mask=mask)


@triton.jit
def _argmax_kernel(y_ptr, out_ptr, vocab, temperature, BLOCK: tl.constexpr):
    # Per-lane running maximum (strictly greater wins, so each lane keeps its
    # first index), then the lowest index among the lanes holding the maximum.
    row = tl.program_id(0).to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    best_i = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        offs = start + lanes
        x = tl.load(y_ptr + row * vocab + offs, mask=offs < vocab, other=float("-inf"))
        x = x / temperature
        take = x > best
        best = tl.where(take, x, best)
        best_i = tl.where(take, offs, best_i)
    m = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == m, best_i, vocab), axis=0)
    tl.store(out_ptr + row, idx)


def run(logits, prev_ids, tokens, rows, vocab, n_prev, temperature, penalty, **_):
    # Scratch copy of the logits with the penalty applied, then an argmax.
    scratch = torch.empty_like(logits)
    _copy_rows_kernel[(rows,)](logits, scratch, vocab, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _penalize_kernel[(rows,)](logits, prev_ids, scratch, vocab, n_prev, float(penalty),
                              BLOCK_P=BLOCK_PREV, num_warps=NUM_WARPS)
    _argmax_kernel[(rows,)](scratch, tokens, vocab, float(temperature), BLOCK=BLOCK_SIZE,
                            num_warps=NUM_WARPS)
