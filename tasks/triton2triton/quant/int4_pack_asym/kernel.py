import os

import triton
import triton.language as tl
from triton.language.extra import libdevice

NUM_WARPS = 4

# Triton's CPU interpreter (TRITON_INTERPRET=1) has no libdevice: there,
# rint is emulated with fp32 arithmetic. Compiled GPU kernels call rint.
_EMULATE_RINT = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


@triton.jit
def _rint(v, EMULATE: tl.constexpr):
    # Round to nearest integer, ties to even.
    if EMULATE:
        # Adding and removing 1.5 * 2^23 leaves v rounded to an integer by
        # the fp32 addition (exact for |v| < 2^22, which always holds here).
        r = (v + 12582912.0) - 12582912.0
    else:
        r = libdevice.rint(v)
    return r


@triton.jit
def _pack_group_kernel(w_ptr, packed_ptr, scales_ptr, zeros_ptr, group_size,
                       PAIRS: tl.constexpr, EMULATE: tl.constexpr):
    # One program per group of group_size consecutive elements of a row
    # (cols is a multiple of group_size, so groups are consecutive chunks of
    # the flat matrix and group g's scale and zero point sit at flat index g).
    g = tl.program_id(0).to(tl.int64)
    half = group_size // 2
    offs = tl.arange(0, PAIRS)
    mask = offs < half
    base = g * group_size
    w_even = tl.load(w_ptr + base + 2 * offs, mask=mask, other=0.0).to(tl.float32)
    w_odd = tl.load(w_ptr + base + 2 * offs + 1, mask=mask, other=0.0).to(tl.float32)
    lo = tl.minimum(tl.min(tl.where(mask, w_even, float("inf")), axis=0),
                    tl.min(tl.where(mask, w_odd, float("inf")), axis=0))
    hi = tl.maximum(tl.max(tl.where(mask, w_even, float("-inf")), axis=0),
                    tl.max(tl.where(mask, w_odd, float("-inf")), axis=0))
    # Every division is IEEE round-to-nearest (div_rn), so that the results
    # are exact and reproducible.
    scale = tl.math.div_rn(hi - lo, 15.0).to(tl.float16)
    scale = tl.where(scale == 0, 1.0, scale).to(tl.float16)
    s = scale.to(tl.float32)
    zero = tl.minimum(tl.maximum(_rint(tl.math.div_rn(-lo, s), EMULATE), 0.0), 15.0)
    q_even = tl.minimum(tl.maximum(_rint(tl.math.div_rn(w_even, s), EMULATE) + zero, 0.0), 15.0)
    q_odd = tl.minimum(tl.maximum(_rint(tl.math.div_rn(w_odd, s), EMULATE) + zero, 0.0), 15.0)
    byte = q_even.to(tl.int32) | (q_odd.to(tl.int32) << 4)
    tl.store(packed_ptr + g * half + offs, byte.to(tl.uint8), mask=mask)
    tl.store(scales_ptr + g, scale)
    tl.store(zeros_ptr + g, zero.to(tl.float16))


def run(w, packed, scales, zeros, rows, cols, group_size, **_):
    groups = rows * (cols // group_size)
    _pack_group_kernel[(groups,)](w, packed, scales, zeros, group_size,
                                  PAIRS=triton.next_power_of_2(group_size // 2),
                                  EMULATE=_EMULATE_RINT, num_warps=NUM_WARPS)
