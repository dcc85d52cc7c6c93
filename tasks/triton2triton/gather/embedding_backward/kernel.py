import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4

_ZERO_BLOCK = 1024


@triton.jit
def _zero_kernel(out_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < numel)


@triton.jit
def _embedding_backward_kernel(grad_out_ptr, ids_ptr, grad_weight_ptr, dim,
                               BLOCK: tl.constexpr):
    # One program per token: its gradient row is added into the row of its id
    # with one global atomic per element, BLOCK columns at a time.
    t = tl.program_id(0).to(tl.int64)
    row = tl.load(ids_ptr + t)
    src = grad_out_ptr + t * dim
    dst = grad_weight_ptr + row * dim
    for start in range(0, dim, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < dim
        g = tl.load(src + offs, mask=mask)
        tl.atomic_add(dst + offs, g, mask=mask)


def run(grad_out, ids, grad_weight, tokens, vocab, dim, **_):
    numel = vocab * dim
    _zero_kernel[(triton.cdiv(numel, _ZERO_BLOCK),)](grad_weight, numel, BLOCK=_ZERO_BLOCK)
    _embedding_backward_kernel[(tokens,)](grad_out, ids, grad_weight, dim, BLOCK=BLOCK_SIZE,
                                          num_warps=NUM_WARPS)
