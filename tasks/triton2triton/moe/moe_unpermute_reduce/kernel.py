import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _unpermute_reduce_kernel(x_ptr, dest_ptr, w_ptr, y_ptr, hidden, k,
                             BLOCK: tl.constexpr):
    # Grid: (tokens, column blocks). Each program walks the token's k slots
    # one after another: load the slot's row index and weight, then the
    # matching slice of that expert-output row.
    t = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < hidden
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, k):
        row = tl.load(dest_ptr + t * k + j).to(tl.int64)
        w = tl.load(w_ptr + t * k + j)
        x = tl.load(x_ptr + row * hidden + cols, mask=mask, other=0.0).to(tl.float32)
        acc += w * x
    tl.store(y_ptr + t * hidden + cols, acc.to(tl.float16), mask=mask)


def run(expert_out, dest, weights, y, tokens, k, experts, hidden, **_):
    grid = (tokens, triton.cdiv(hidden, BLOCK_SIZE))
    _unpermute_reduce_kernel[grid](expert_out, dest, weights, y, hidden, k,
                                   BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
