import triton
import triton.language as tl

BLOCK_T = 128
NUM_WARPS = 4


@triton.jit
def _causal_dwconv_kernel(x_ptr, w_ptr, y_ptr, C, L,
                          W: tl.constexpr, BT: tl.constexpr):
    row = tl.program_id(0)          # one (batch, channel) row of length L
    c = row % C
    base = row.to(tl.int64) * L
    t = tl.program_id(1) * BT + tl.arange(0, BT)
    acc = tl.zeros([BT], dtype=tl.float32)
    for j in tl.static_range(W):
        wj = tl.load(w_ptr + c * W + j).to(tl.float32)
        src = t - (W - 1) + j       # left zero padding of W - 1
        xj = tl.load(x_ptr + base + src, mask=(src >= 0) & (src < L), other=0.0)
        acc += wj * xj.to(tl.float32)
    tl.store(y_ptr + base + t, acc.to(tl.float16), mask=t < L)


def run(x, w, y, batch, channels, length, width, **_):
    grid = (batch * channels, triton.cdiv(length, BLOCK_T))
    _causal_dwconv_kernel[grid](x, w, y, channels, length, W=width, BT=BLOCK_T,
                                num_warps=NUM_WARPS)
