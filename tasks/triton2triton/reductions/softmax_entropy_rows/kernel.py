import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _softmax_entropy_kernel(x_ptr, h_ptr, cols, BLOCK: tl.constexpr):
    # One program per row. Walk 1: the row maximum m. Walk 2: s = sum exp(x - m).
    # Walk 3: sum p * (x - m) with p = exp(x - m) / s. Then H = log(s) - that sum.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols

    mx = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        mx = tl.maximum(mx, x)
    m = tl.max(mx, axis=0)

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(mask, tl.exp(x - m), 0.0)
    s = tl.sum(acc, axis=0)

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        p = tl.exp(x - m) / s
        acc += tl.where(mask, p * (x - m), 0.0)
    tl.store(h_ptr + row, tl.log(s) - tl.sum(acc, axis=0))


def run(logits, entropy, rows, cols, **_):
    _softmax_entropy_kernel[(rows,)](logits, entropy, cols, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
