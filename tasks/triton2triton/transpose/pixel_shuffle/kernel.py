import triton
import triton.language as tl

BLOCK_W = 128
NUM_WARPS = 4


@triton.jit
def _pixel_shuffle_kernel(x_ptr, out_ptr, H, W, R, BLOCK: tl.constexpr):
    # One program per output row (image, channel, output line oy): walk the
    # row in BLOCK-wide chunks, each output column ox reading input channel
    # ch * R * R + (oy % R) * R + ox % R at pixel (oy // R, ox // R).
    pid = tl.program_id(0).to(tl.int64)
    OH = H * R
    OW = W * R
    nc = pid // OH
    oy = pid % OH
    iy = oy // R
    i = oy % R
    hw = H * W
    src_base = x_ptr + (nc * R * R + i * R) * hw + iy * W
    dst_row = out_ptr + pid * OW
    for start in range(0, OW, BLOCK):
        ox = start + tl.arange(0, BLOCK)
        mask = ox < OW
        j = ox % R
        ix = ox // R
        v = tl.load(src_base + j.to(tl.int64) * hw + ix, mask=mask)
        tl.store(dst_row + ox, v, mask=mask)


def run(x, out, n, c, r, h, w, **_):
    grid = (n * c * h * r,)
    _pixel_shuffle_kernel[grid](x, out, h, w, r, BLOCK=BLOCK_W, num_warps=NUM_WARPS)
