import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _poly_kernel(x_ptr, c_ptr, y_ptr, n, DEGREE: tl.constexpr, BLOCK: tl.constexpr):
    # One small block per program; Horner's rule from the highest coefficient
    # down, reading each coefficient from memory as it is needed.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(c_ptr + DEGREE)
    for k in tl.static_range(DEGREE - 1, -1, -1):
        acc = acc * x + tl.load(c_ptr + k)
    tl.store(y_ptr + offs, acc, mask=mask)


def run(x, coeffs, y, n, **_):
    _poly_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, coeffs, y, n, DEGREE=coeffs.numel() - 1,
                                                BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
