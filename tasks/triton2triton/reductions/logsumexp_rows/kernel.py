import triton
import triton.language as tl

BLOCK_N = 1024
NUM_WARPS = 4


@triton.jit
def _logsumexp_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    # One program per row: a first walk for the maximum, a second for the sum
    # of exp(x - max).
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols

    m_acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        m_acc = tl.maximum(m_acc, x)
    m = tl.max(m_acc, axis=0)
    # A row that is entirely -inf has no finite maximum: shift by 0 instead,
    # so that exp(-inf - 0) = 0 and the result is log(0) = -inf.
    m_safe = tl.where(m == float("-inf"), 0.0, m)

    s_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        s_acc += tl.exp(x - m_safe)
    tl.store(out_ptr + row, m_safe + tl.log(tl.sum(s_acc, axis=0)))


def run(x, out, rows, cols, **_):
    _logsumexp_kernel[(rows,)](x, out, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
