import triton
import triton.language as tl

BLOCK_SIZE = 128
NUM_WARPS = 4

# Rows and columns of the square blocks that share one scale.
QUANT_BLOCK = 128


@triton.jit
def _dequantize_kernel(q_ptr, scale_ptr, out_ptr, cols, scale_cols,
                       QB: tl.constexpr, BLOCK: tl.constexpr):
    # Grid: (rows, blocks of BLOCK columns); each program converts BLOCK
    # values of one row and looks up every value's scale on its own.
    row = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < cols
    base = row.to(tl.int64) * cols
    # q holds float8 e4m3fn bit patterns: reinterpret, then widen.
    q = tl.load(q_ptr + base + offs, mask=mask, other=0)
    q = q.to(tl.float8e4nv, bitcast=True).to(tl.float32)
    s_idx = (row // QB).to(tl.int64) * scale_cols + offs // QB
    s = tl.load(scale_ptr + s_idx, mask=mask, other=0.0)
    tl.store(out_ptr + base + offs, (q * s).to(tl.bfloat16), mask=mask)


def run(q, scale, out, rows, cols, **_):
    scale_cols = triton.cdiv(cols, QUANT_BLOCK)
    grid = (rows, triton.cdiv(cols, BLOCK_SIZE))
    _dequantize_kernel[grid](q, scale, out, cols, scale_cols, QB=QUANT_BLOCK,
                             BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
