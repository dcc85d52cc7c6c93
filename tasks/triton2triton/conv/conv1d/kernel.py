import triton
import triton.language as tl

BLOCK_CO = 32
BLOCK_T = 32
BLOCK_CI = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _conv1d_kernel(x_ptr, w_ptr, y_ptr, CIN, COUT, L, KS, PAD,
                   stride_xb, stride_xc, stride_wo, stride_wi, stride_yb, stride_yc,
                   BCO: tl.constexpr, BT: tl.constexpr, BCI: tl.constexpr):
    # Direct convolution as a sum of small products: for every tap kk and
    # block of input channels, y[co, t] += w[co, ci, kk] @ x[ci, t + kk - PAD].
    pid_t = tl.program_id(0)
    pid_co = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    co = pid_co * BCO + tl.arange(0, BCO)
    t = pid_t * BT + tl.arange(0, BT)
    ci = tl.arange(0, BCI)
    x_base = x_ptr + b * stride_xb
    acc = tl.zeros([BCO, BT], dtype=tl.float32)
    for kk in range(0, KS):
        src = t + kk - PAD
        src_ok = (src >= 0) & (src < L)
        for c0 in range(0, CIN, BCI):
            cc = c0 + ci
            w = tl.load(w_ptr + co[:, None] * stride_wo + cc[None, :] * stride_wi + kk,
                        mask=(co[:, None] < COUT) & (cc[None, :] < CIN), other=0.0)
            x = tl.load(x_base + cc[:, None] * stride_xc + src[None, :],
                        mask=(cc[:, None] < CIN) & src_ok[None, :], other=0.0)
            acc += tl.dot(w, x)
    y = y_ptr + b * stride_yb + co[:, None] * stride_yc + t[None, :]
    tl.store(y, acc.to(tl.float16), mask=(co[:, None] < COUT) & (t[None, :] < L))


def run(x, w, y, batch, cin, cout, length, ksize, **_):
    grid = (triton.cdiv(length, BLOCK_T), triton.cdiv(cout, BLOCK_CO), batch)
    _conv1d_kernel[grid](x, w, y, cin, cout, length, ksize, (ksize - 1) // 2,
                         x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                         y.stride(0), y.stride(1),
                         BCO=BLOCK_CO, BT=BLOCK_T, BCI=BLOCK_CI,
                         num_warps=NUM_WARPS, num_stages=NUM_STAGES)
