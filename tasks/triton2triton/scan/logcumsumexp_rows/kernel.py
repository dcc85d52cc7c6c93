import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _logcumsumexp_rows_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, BLOCK-wide chunks left to right. The running state
    # is (m, s): the largest value so far and the sum of exp(x - m) so far.
    # Each chunk is rescaled to the larger of m and its own maximum.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    m = float("-inf")
    s = 0.0
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        # While everything so far is -inf, shift by 0: exp(-inf) = 0 and the
        # results are log(0) = -inf, never NaN.
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        e = tl.exp(x - m_safe)
        carried = s * tl.exp(m - m_safe)
        tl.store(y_row + offs, m_safe + tl.log(tl.cumsum(e, axis=0) + carried), mask=mask)
        s = tl.sum(e, axis=0) + carried
        m = m_new


def run(x, y, rows, cols, **_):
    _logcumsumexp_rows_kernel[(rows,)](x, y, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
