import triton
import triton.language as tl

BLOCK_COLS = 512
BLOCK_SUM = 512
NUM_WARPS = 4


@triton.jit
def _dropout_apply_kernel(x_ptr, mask_ptr, y_ptr, cols, scale, BLOCK: tl.constexpr):
    # y[r, c] = x[r, c] * mask[r, c] * scale, one program per (row, column chunk).
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=inb, other=0.0).to(tl.float32)
    keep = tl.load(mask_ptr + row * cols + offs, mask=inb, other=0)
    y = tl.where(keep != 0, x * scale, 0.0)
    tl.store(y_ptr + row * cols + offs, y.to(tl.float16), mask=inb)


@triton.jit
def _mask_sum_kernel(mask_ptr, sum_ptr, cols, BLOCK: tl.constexpr):
    # One program per row reads the mask a second time and counts its ones.
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(mask_ptr + row * cols + offs, mask=offs < cols, other=0).to(tl.int32)
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


def run(x, mask, y, mask_sum, rows, cols, p, **_):
    scale = 1.0 / (1.0 - p)
    _dropout_apply_kernel[(rows, triton.cdiv(cols, BLOCK_COLS))](
        x, mask, y, cols, scale, BLOCK=BLOCK_COLS, num_warps=NUM_WARPS)
    _mask_sum_kernel[(rows,)](mask, mask_sum, cols, BLOCK=BLOCK_SUM, num_warps=NUM_WARPS)
