import triton
import triton.language as tl

BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _instance_norm_kernel(x_ptr, y_ptr, spatial, eps, BLOCK: tl.constexpr):
    # One program per (sample, channel) row of `spatial` contiguous values,
    # walked three times: mean, variance, normalize.
    row = tl.program_id(0)
    base = row.to(tl.int64) * spatial
    x_row = x_ptr + base
    y_row = y_ptr + base

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, spatial, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + offs, mask=offs < spatial, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / spatial

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, spatial, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < spatial
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / spatial + eps)

    for start in range(0, spatial, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < spatial
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + offs, ((x - mean) * rstd).to(tl.float16), mask=mask)


def run(x, y, batch, channels, spatial, eps, **_):
    _instance_norm_kernel[(batch * channels,)](x, y, spatial, float(eps), BLOCK=BLOCK_SIZE,
                                               num_warps=NUM_WARPS)
