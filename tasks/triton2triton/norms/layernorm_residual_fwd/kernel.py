import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _add_layernorm_kernel(x_ptr, res_ptr, w_ptr, b_ptr, res_out_ptr, y_ptr, cols, eps,
                          BLOCK: tl.constexpr):
    # One program per row, three walks in BLOCK-wide chunks; every walk reads
    # x and residual again and adds them.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    r_row = res_ptr + row * cols
    ro_row = res_out_ptr + row * cols
    y_row = y_ptr + row * cols

    # Walk 1: the sum, stored, and its mean.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_row + offs, mask=mask, other=0.0).to(tl.float32)
        h = x + r
        tl.store(ro_row + offs, h.to(tl.float16), mask=mask)
        acc += h
    mean = tl.sum(acc, axis=0) / cols

    # Walk 2: the variance.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x + r - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / cols + eps)

    # Walk 3: normalize, scale and shift.
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = (x + r - mean) * rstd * w + b
        tl.store(y_row + offs, y.to(tl.float16), mask=mask)


def run(x, residual, w, b, residual_out, y, rows, cols, eps, **_):
    _add_layernorm_kernel[(rows,)](x, residual, w, b, residual_out, y, cols, eps,
                                   BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
