import triton
import triton.language as tl

BLOCK_SIZE = 128   # output pixels of one plane per program
NUM_WARPS = 4


@triton.jit
def _maxpool2d_nchw_kernel(x_ptr, y_ptr, H, W, OH, OW,
                           K: tl.constexpr, S: tl.constexpr, P: tl.constexpr,
                           BLOCK: tl.constexpr):
    # One program per (plane, BLOCK consecutive output pixels of that plane).
    # Every window tap is a separate strided load; taps outside the image
    # read -inf, so they never win.
    plane = tl.program_id(0)            # b * channels + c
    idx = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    pix_ok = idx < OH * OW
    oh = idx // OW
    ow = idx % OW
    x_plane = x_ptr + plane.to(tl.int64) * H * W
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for kh in tl.static_range(K):
        ih = oh * S - P + kh
        for kw in tl.static_range(K):
            iw = ow * S - P + kw
            ok = pix_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            v = tl.load(x_plane + ih * W + iw, mask=ok, other=float("-inf"))
            acc = tl.maximum(acc, v.to(tl.float32))
    y_plane = y_ptr + plane.to(tl.int64) * OH * OW
    tl.store(y_plane + idx, acc.to(tl.float16), mask=pix_ok)


def run(x, y, batch, channels, height, width, kernel, stride, padding, **_):
    oh = (height + 2 * padding - kernel) // stride + 1
    ow = (width + 2 * padding - kernel) // stride + 1
    grid = (batch * channels, triton.cdiv(oh * ow, BLOCK_SIZE))
    _maxpool2d_nchw_kernel[grid](x, y, height, width, oh, ow,
                                 K=kernel, S=stride, P=padding, BLOCK=BLOCK_SIZE,
                                 num_warps=NUM_WARPS)
