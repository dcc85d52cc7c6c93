import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _quantize_group_kernel(x_ptr, q_ptr, scale_ptr, group_size, BLOCK: tl.constexpr):
    # One program per group of group_size consecutive elements of a row
    # (cols is a multiple of group_size, so groups are simply consecutive
    # chunks of the flat matrix, and group g's scale is scales.flat[g]).
    g = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < group_size
    ptrs = g * group_size + offs
    x = tl.load(x_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=0)
    # The scale is stored in fp16 and the values are divided by that rounded
    # scale, so that q * scale reproduces x as closely as possible.
    scale = (amax / 127.0).to(tl.float16)
    tl.store(scale_ptr + g, scale)
    s = scale.to(tl.float32)
    v = x / tl.where(s > 0, s, 1.0)
    # Round half away from zero, then clamp to the symmetric range.
    r = tl.where(v >= 0, tl.floor(v + 0.5), tl.ceil(v - 0.5))
    r = tl.minimum(tl.maximum(r, -127.0), 127.0)
    tl.store(q_ptr + ptrs, r.to(tl.int8), mask=mask)


def run(x, q, scales, rows, cols, group_size, **_):
    groups = rows * (cols // group_size)
    _quantize_group_kernel[(groups,)](x, q, scales, group_size,
                                      BLOCK=triton.next_power_of_2(group_size),
                                      num_warps=NUM_WARPS)
