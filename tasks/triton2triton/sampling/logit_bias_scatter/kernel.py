import triton
import triton.language as tl

BLOCK_SIZE = 1024
BLOCK_BIAS = 128
NUM_WARPS = 4


@triton.jit
def _copy_rows_kernel(x_ptr, out_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < vocab
        tl.store(out_ptr + row * vocab + offs, tl.load(x_ptr + row * vocab + offs, mask=mask),
                 mask=mask)


@triton.jit
def _add_bias_kernel(out_ptr, ids_ptr, vals_ptr, vocab, nb, BLOCK_B: tl.constexpr):
    # Ids are distinct within a row, so plain read-modify-write is safe.
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, nb, BLOCK_B):
        offs = start + tl.arange(0, BLOCK_B)
        mask = offs < nb
        ids = tl.load(ids_ptr + row * nb + offs, mask=mask, other=0).to(tl.int64)
        b = tl.load(vals_ptr + row * nb + offs, mask=mask, other=0.0)
        x = tl.load(out_ptr + row * vocab + ids, mask=mask, other=0.0)
        tl.store(out_ptr + row * vocab + ids, x + b, mask=mask)


def run(logits, bias_ids, bias_vals, out, rows, vocab, nb, **_):
    _copy_rows_kernel[(rows,)](logits, out, vocab, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
    _add_bias_kernel[(rows,)](out, bias_ids, bias_vals, vocab, nb, BLOCK_B=BLOCK_BIAS,
                              num_warps=NUM_WARPS)
