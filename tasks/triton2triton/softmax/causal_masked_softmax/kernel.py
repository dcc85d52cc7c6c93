import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _causal_softmax_kernel(x_ptr, y_ptr, q_len, k_len, scale, BLOCK: tl.constexpr):
    # One program per (batch*head, query) row of k_len keys. The mask is
    # aligned to the end: query i sees keys j <= i + (k_len - q_len); hidden
    # keys get probability 0. The whole row is swept three times.
    row = tl.program_id(0)
    last = row % q_len + (k_len - q_len)
    x_row = x_ptr + row.to(tl.int64) * k_len
    y_row = y_ptr + row.to(tl.int64) * k_len

    m_acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, k_len, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < k_len, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= last, x, float("-inf"))
        m_acc = tl.maximum(m_acc, x)
    m = tl.max(m_acc, axis=0)

    s_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, k_len, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < k_len, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= last, x, float("-inf"))
        s_acc += tl.exp(x - m)
    inv = 1.0 / tl.sum(s_acc, axis=0)

    for start in range(0, k_len, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < k_len
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= last, x, float("-inf"))
        tl.store(y_row + offs, (tl.exp(x - m) * inv).to(tl.float16), mask=mask)


def run(x, y, bh, q_len, k_len, scale, **_):
    _causal_softmax_kernel[(bh * q_len,)](x, y, q_len, k_len, float(scale), BLOCK=BLOCK_N,
                                          num_warps=NUM_WARPS)
