import triton
import triton.language as tl

BLOCK_C = 128    # channels per program
NUM_WARPS = 4


@triton.jit
def _dwconv2d_nhwc_kernel(x_ptr, w_ptr, y_ptr, H, W, C, OH, OW,
                          K: tl.constexpr, S: tl.constexpr, BC: tl.constexpr):
    # One program per (output pixel, BC-wide block of channels): for each of
    # the K * K taps inside the image it loads the input pixel's channel
    # vector and that tap's filter vector, accumulating in fp32.
    pix = tl.program_id(0)              # (b * OH + oh) * OW + ow
    ow = pix % OW
    oh = (pix // OW) % OH
    b = pix // (OW * OH)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    c_ok = c < C
    h0 = oh * S - K // 2
    w0 = ow * S - K // 2
    acc = tl.zeros([BC], dtype=tl.float32)
    for kh in tl.static_range(K):
        ih = h0 + kh
        for kw in tl.static_range(K):
            iw = w0 + kw
            if (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W):
                src = ((b.to(tl.int64) * H + ih) * W + iw) * C
                xv = tl.load(x_ptr + src + c, mask=c_ok, other=0.0)
                wv = tl.load(w_ptr + (kh * K + kw) * C + c, mask=c_ok, other=0.0)
                acc += xv.to(tl.float32) * wv.to(tl.float32)
    tl.store(y_ptr + pix.to(tl.int64) * C + c, acc.to(tl.float16), mask=c_ok)


def run(x, w, y, batch, height, width, channels, ksize, stride, **_):
    pad = ksize // 2
    oh = (height + 2 * pad - ksize) // stride + 1
    ow = (width + 2 * pad - ksize) // stride + 1
    grid = (batch * oh * ow, triton.cdiv(channels, BLOCK_C))
    _dwconv2d_nhwc_kernel[grid](x, w, y, height, width, channels, oh, ow,
                                K=ksize, S=stride, BC=BLOCK_C, num_warps=NUM_WARPS)
