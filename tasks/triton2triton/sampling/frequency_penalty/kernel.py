import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024
BLOCK_PREV = 128
NUM_WARPS = 4


@triton.jit
def _zero_kernel(c_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(c_ptr + row * vocab + offs, tl.zeros([BLOCK], dtype=tl.int32), mask=offs < vocab)


@triton.jit
def _count_kernel(prev_ptr, c_ptr, vocab, n_prev, BLOCK_P: tl.constexpr):
    # One atomic increment per previous id (repeated ids add up).
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, n_prev, BLOCK_P):
        offs = start + tl.arange(0, BLOCK_P)
        mask = offs < n_prev
        ids = tl.load(prev_ptr + row * n_prev + offs, mask=mask, other=0).to(tl.int64)
        tl.atomic_add(c_ptr + row * vocab + ids, tl.full([BLOCK_P], 1, dtype=tl.int32), mask=mask)


@triton.jit
def _apply_kernel(x_ptr, c_ptr, out_ptr, vocab, freq_penalty, presence_penalty,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < vocab
        x = tl.load(x_ptr + row * vocab + offs, mask=mask, other=0.0)
        c = tl.load(c_ptr + row * vocab + offs, mask=mask, other=0)
        y = x - (freq_penalty * c.to(tl.float32) + tl.where(c > 0, presence_penalty, 0.0))
        tl.store(out_ptr + row * vocab + offs, y, mask=mask)


def run(logits, prev_ids, out, rows, vocab, n_prev, freq_penalty, presence_penalty, **_):
    # A dense count matrix: zero it, count the previous ids, apply.
    counts = torch.empty((rows, vocab), dtype=torch.int32, device=logits.device)
    _zero_kernel[(rows,)](counts, vocab, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _count_kernel[(rows,)](prev_ids, counts, vocab, n_prev, BLOCK_P=BLOCK_PREV,
                           num_warps=NUM_WARPS)
    _apply_kernel[(rows,)](logits, counts, out, vocab, float(freq_penalty),
                           float(presence_penalty), BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
