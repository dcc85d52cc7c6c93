import triton
import triton.language as tl

BLOCK_N = 128
NUM_WARPS = 4


@triton.jit
def _masked_softmax_kernel(x_ptr, y_ptr, seq, scale, BLOCK: tl.constexpr):
    # One program per (batch*head, query) row of seq keys. Key j is visible to
    # query i when j <= i; hidden keys get probability 0.
    row = tl.program_id(0)
    q = row % seq
    x_row = x_ptr + row.to(tl.int64) * seq
    y_row = y_ptr + row.to(tl.int64) * seq

    m_acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, seq, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < seq, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= q, x, float("-inf"))
        m_acc = tl.maximum(m_acc, x)
    m = tl.max(m_acc, axis=0)

    s_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, seq, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < seq, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= q, x, float("-inf"))
        s_acc += tl.exp(x - m)
    inv = 1.0 / tl.sum(s_acc, axis=0)

    for start in range(0, seq, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < seq
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32) * scale
        x = tl.where(offs <= q, x, float("-inf"))
        tl.store(y_row + offs, (tl.exp(x - m) * inv).to(tl.float16), mask=mask)


def run(x, y, bh, seq, scale, **_):
    _masked_softmax_kernel[(bh * seq,)](x, y, seq, float(scale), BLOCK=BLOCK_N,
                                        num_warps=NUM_WARPS)
