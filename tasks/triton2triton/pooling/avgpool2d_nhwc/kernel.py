import triton
import triton.language as tl

BLOCK_C = 128    # channels per program
NUM_WARPS = 4


@triton.jit
def _avgpool2d_nhwc_kernel(x_ptr, y_ptr, H, W, C, OH, OW,
                           K: tl.constexpr, S: tl.constexpr, P: tl.constexpr,
                           BC: tl.constexpr):
    # One program per (output pixel, BC-wide block of channels): it sums the
    # window tap by tap, skipping taps outside the image, and divides by the
    # number of taps inside it (count_include_pad=False).
    pix = tl.program_id(0)              # (b * OH + oh) * OW + ow
    ow = pix % OW
    oh = (pix // OW) % OH
    b = pix // (OW * OH)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    c_ok = c < C
    h0 = oh * S - P
    w0 = ow * S - P
    acc = tl.zeros([BC], dtype=tl.float32)
    for kh in tl.static_range(K):
        ih = h0 + kh
        for kw in tl.static_range(K):
            iw = w0 + kw
            if (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W):
                src = ((b.to(tl.int64) * H + ih) * W + iw) * C
                v = tl.load(x_ptr + src + c, mask=c_ok, other=0.0)
                acc += v.to(tl.float32)
    count = (tl.minimum(h0 + K, H) - tl.maximum(h0, 0)) * (tl.minimum(w0 + K, W) - tl.maximum(w0, 0))
    y = acc / count.to(tl.float32)
    tl.store(y_ptr + pix.to(tl.int64) * C + c, y.to(tl.float16), mask=c_ok)


def run(x, y, batch, height, width, channels, kernel, stride, padding, **_):
    oh = (height + 2 * padding - kernel) // stride + 1
    ow = (width + 2 * padding - kernel) // stride + 1
    grid = (batch * oh * ow, triton.cdiv(channels, BLOCK_C))
    _avgpool2d_nhwc_kernel[grid](x, y, height, width, channels, oh, ow,
                                 K=kernel, S=stride, P=padding, BC=BLOCK_C,
                                 num_warps=NUM_WARPS)
