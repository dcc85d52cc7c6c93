import triton
import triton.language as tl

BLOCK_T = 128
NUM_WARPS = 4


@triton.jit
def _conv1d_grouped_kernel(x_ptr, w_ptr, y_ptr, CIN, COUT, L, KS, PAD, CPG_IN, CPG_OUT,
                           BT: tl.constexpr):
    # One program per (output channel, time block, batch): a scalar weight
    # times a vector of BT inputs, for every input channel of the group and
    # every tap, accumulated in fp32.
    pid_t = tl.program_id(0)
    co = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    g = co // CPG_OUT
    t = pid_t * BT + tl.arange(0, BT)
    acc = tl.zeros([BT], dtype=tl.float32)
    x_base = x_ptr + (b * CIN + g * CPG_IN) * L
    w_base = w_ptr + co.to(tl.int64) * CPG_IN * KS
    for i in range(0, CPG_IN):
        x_row = x_base + i * L
        for kk in range(0, KS):
            wv = tl.load(w_base + i * KS + kk).to(tl.float32)
            src = t + kk - PAD
            xv = tl.load(x_row + src, mask=(src >= 0) & (src < L), other=0.0)
            acc += wv * xv.to(tl.float32)
    y = y_ptr + (b * COUT + co) * L + t
    tl.store(y, acc.to(tl.float16), mask=t < L)


def run(x, w, y, batch, cin, cout, length, ksize, groups, **_):
    grid = (triton.cdiv(length, BLOCK_T), cout, batch)
    _conv1d_grouped_kernel[grid](x, w, y, cin, cout, length, ksize, ksize // 2,
                                 cin // groups, cout // groups, BT=BLOCK_T,
                                 num_warps=NUM_WARPS)
