import os

import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4

# Under Triton's CPU interpreter (TRITON_INTERPRET=1) a cast from fp32 to bf16
# truncates the mantissa instead of rounding to nearest even. There only, the
# value is first rounded onto the bf16 grid in fp32, so that the cast is
# exact. Compiled GPU kernels cast directly (the hardware rounds to nearest
# even).
_ROUND_FOR_INTERPRETER = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


@triton.jit
def _round_to_bf16_grid(v):
    # |v| in [2^e, 2^(e+1)): adding then subtracting 2^(e+16) makes the fp32
    # adder round |v| to a multiple of 2^(e-7), ties to even. 2^e is read
    # from v's exponent bits (taken as at least 2^-126).
    a = tl.abs(v)
    lead = (a.to(tl.int32, bitcast=True) & 0x7F800000).to(tl.float32, bitcast=True)
    big = tl.maximum(lead, 1.1754943508222875e-38) * 65536.0
    r = (a + big) - big
    return tl.where(v < 0, -r, r)


@triton.jit
def _clamp_cast_kernel(x_ptr, y_ptr, n, scale, lo, hi, BLOCK: tl.constexpr,
                       ROUND: tl.constexpr):
    # One program per BLOCK elements.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    v = tl.minimum(tl.maximum(x * scale, lo), hi)
    if ROUND:
        v = _round_to_bf16_grid(v)
    tl.store(y_ptr + offs, v.to(tl.bfloat16), mask=mask)


def run(x, y, n, scale, lo, hi, **_):
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _clamp_cast_kernel[grid](x, y, n, scale, lo, hi, BLOCK=BLOCK_SIZE,
                             ROUND=_ROUND_FOR_INTERPRETER, num_warps=NUM_WARPS)
