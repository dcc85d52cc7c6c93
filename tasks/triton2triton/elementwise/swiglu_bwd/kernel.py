import triton
import triton.language as tl

BLOCK_COLS = 128
NUM_WARPS = 4


@triton.jit
def _swiglu_bwd_da_kernel(a_ptr, b_ptr, dy_ptr, da_ptr, cols, BLOCK: tl.constexpr):
    # da = dy * b * s * (1 + a * (1 - s)) with s = sigmoid(a);
    # one program per (row, BLOCK-column chunk).
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    base = row * cols
    a = tl.load(a_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    s = 1.0 / (1.0 + tl.exp(-a))
    da = dy * b * s * (1.0 + a * (1.0 - s))
    tl.store(da_ptr + base + offs, da.to(tl.bfloat16), mask=mask)


@triton.jit
def _swiglu_bwd_db_kernel(a_ptr, dy_ptr, db_ptr, cols, BLOCK: tl.constexpr):
    # db = dy * silu(a); a and dy are read a second time.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    base = row * cols
    a = tl.load(a_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    silu = a / (1.0 + tl.exp(-a))
    tl.store(db_ptr + base + offs, (dy * silu).to(tl.bfloat16), mask=mask)


def run(a, b, dy, da, db, rows, cols, **_):
    grid = (rows, triton.cdiv(cols, BLOCK_COLS))
    _swiglu_bwd_da_kernel[grid](a, b, dy, da, cols, BLOCK=BLOCK_COLS, num_warps=NUM_WARPS)
    _swiglu_bwd_db_kernel[grid](a, dy, db, cols, BLOCK=BLOCK_COLS, num_warps=NUM_WARPS)
