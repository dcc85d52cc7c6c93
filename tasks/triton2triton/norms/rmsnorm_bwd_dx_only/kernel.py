import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _rms_bwd_dx_kernel(x_ptr, w_ptr, dy_ptr, rstd_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    # One program per row; two walks over the row in BLOCK-wide chunks:
    # the row's mean of (w*dy) * xhat, then dx.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    dy_row = dy_ptr + row * cols
    dx_row = dx_ptr + row * cols
    rstd = tl.load(rstd_ptr + row)

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += (w * dy) * (x * rstd)
    c = tl.sum(acc, axis=0) / cols

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dx = (w * dy - (x * rstd) * c) * rstd
        tl.store(dx_row + offs, dx.to(tl.bfloat16), mask=mask)


def run(x, w, dy, rstd, dx, rows, cols, **_):
    _rms_bwd_dx_kernel[(rows,)](x, w, dy, rstd, dx, cols, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
