import triton
import triton.language as tl

BLOCK_N = 256
NUM_WARPS = 4


@triton.jit
def _row_max_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, walking the row in BLOCK-wide chunks.
    row = tl.program_id(0)
    base = x_ptr + row * cols
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < cols, other=float("-inf"))
        acc = tl.maximum(acc, x)
    tl.store(out_ptr + row, tl.max(acc, axis=0))


def run(x, out, rows, cols, **_):
    _row_max_kernel[(rows,)](x, out, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
