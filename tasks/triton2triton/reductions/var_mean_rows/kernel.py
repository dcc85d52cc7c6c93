import triton
import triton.language as tl

BLOCK_N = 1024
NUM_WARPS = 4


@triton.jit
def _var_mean_kernel(x_ptr, mean_ptr, var_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, two walks over it: the mean first, then the sum of
    # squared deviations from that mean (no cancellation).
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols

    s_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=0.0).to(tl.float32)
        s_acc += x
    mean = tl.sum(s_acc, axis=0) / cols

    q_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        q_acc += d * d
    var = tl.sum(q_acc, axis=0) / (cols - 1)

    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, var)


def run(x, mean, var, rows, cols, **_):
    _var_mean_kernel[(rows,)](x, mean, var, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
