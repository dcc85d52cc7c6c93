import triton
import triton.language as tl

BLOCK_P = 32      # output pixels per program
BLOCK_CO = 32     # output channels per program
BLOCK_CI = 32     # input channels per step
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _conv3x3_nhwc_kernel(x_ptr, w_ptr, y_ptr, B, H, W, CIN, COUT,
                         BP: tl.constexpr, BCO: tl.constexpr, BCI: tl.constexpr):
    # Implicit GEMM: the rows are output pixels (b, h, w) flattened, the
    # columns output channels. For every tap and block of input channels,
    # acc[p, co] += x[b, h + kh - 1, w + kw - 1, ci] @ w[kh, kw, ci, co].
    pid_p = tl.program_id(0)
    pid_co = tl.program_id(1)
    p = pid_p * BP + tl.arange(0, BP)
    co = pid_co * BCO + tl.arange(0, BCO)
    ci = tl.arange(0, BCI)
    p_ok = p < B * H * W
    ow = p % W
    oh = (p // W) % H
    ob = (p // W) // H
    acc = tl.zeros([BP, BCO], dtype=tl.float32)
    for kh in range(0, 3):
        for kw in range(0, 3):
            ih = oh + kh - 1
            iw = ow + kw - 1
            src_ok = p_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            pix = (ob.to(tl.int64) * H + ih) * W + iw
            for c0 in range(0, CIN, BCI):
                cc = c0 + ci
                a = tl.load(x_ptr + pix[:, None] * CIN + cc[None, :],
                            mask=src_ok[:, None] & (cc[None, :] < CIN), other=0.0)
                wrow = (kh * 3 + kw) * CIN + cc
                b = tl.load(w_ptr + wrow[:, None] * COUT + co[None, :],
                            mask=(cc[:, None] < CIN) & (co[None, :] < COUT), other=0.0)
                acc += tl.dot(a, b)
    y = y_ptr + p.to(tl.int64)[:, None] * COUT + co[None, :]
    tl.store(y, acc.to(tl.float16), mask=p_ok[:, None] & (co[None, :] < COUT))


def run(x, w, y, batch, height, width, cin, cout, **_):
    grid = (triton.cdiv(batch * height * width, BLOCK_P), triton.cdiv(cout, BLOCK_CO))
    _conv3x3_nhwc_kernel[grid](x, w, y, batch, height, width, cin, cout,
                               BP=BLOCK_P, BCO=BLOCK_CO, BCI=BLOCK_CI,
                               num_warps=NUM_WARPS, num_stages=NUM_STAGES)
