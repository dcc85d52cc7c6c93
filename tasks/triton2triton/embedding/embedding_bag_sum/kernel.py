import triton
import triton.language as tl

BLOCK_SIZE = 64
NUM_WARPS = 2


@triton.jit
def _embedding_bag_kernel(weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim,
                          BLOCK: tl.constexpr):
    # Grid: (bags, column blocks). Each program walks its bag one index at a
    # time and accumulates the rows' BLOCK-wide slice in fp32.
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < dim
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(start, end):
        row = tl.load(indices_ptr + j)
        acc += tl.load(weight_ptr + row * dim + cols, mask=mask, other=0.0)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, acc, mask=mask)


def run(weight, indices, offsets, out, vocab, dim, bags, nnz, **_):
    grid = (bags, triton.cdiv(dim, BLOCK_SIZE))
    _embedding_bag_kernel[grid](weight, indices, offsets, out, dim, BLOCK=BLOCK_SIZE,
                                num_warps=NUM_WARPS)
