import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _embedding_kernel(weight_ptr, ids_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    # One program per token; it walks the embedding row in BLOCK-wide chunks.
    t = tl.program_id(0)
    row = tl.load(ids_ptr + t).to(tl.int64)
    src = weight_ptr + row * dim
    dst = out_ptr + t.to(tl.int64) * dim
    for start in range(0, dim, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < dim
        tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


def run(weight, ids, out, vocab, dim, batch, seq, **_):
    _embedding_kernel[(batch * seq,)](weight, ids, out, dim, BLOCK=BLOCK_SIZE,
                                      num_warps=NUM_WARPS)
