import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4

# Consecutive elements (in flat row-major order) that share one absmax.
QUANT_BLOCK = 64


@triton.jit
def _nf4_dequantize_kernel(packed_ptr, absmax_ptr, code_ptr, out_ptr, n_bytes,
                           QB: tl.constexpr, BLOCK: tl.constexpr):
    # Rows are contiguous and have an even length, so the matrix is the flat
    # sequence of bytes, each holding two consecutive elements; each program
    # expands BLOCK bytes into 2 * BLOCK fp16 values.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_bytes
    byte = tl.load(packed_ptr + offs, mask=mask, other=0).to(tl.int32)
    # High nibble first: element 2i is in the high nibble, 2i + 1 in the low.
    v_even = tl.load(code_ptr + ((byte >> 4) & 0xF), mask=mask, other=0.0)
    v_odd = tl.load(code_ptr + (byte & 0xF), mask=mask, other=0.0)
    # Both elements of a byte lie in the same block (QB is even).
    a = tl.load(absmax_ptr + (2 * offs) // QB, mask=mask, other=0.0)
    tl.store(out_ptr + 2 * offs, (v_even * a).to(tl.float16), mask=mask)
    tl.store(out_ptr + 2 * offs + 1, (v_odd * a).to(tl.float16), mask=mask)


def run(packed, absmax, code, out, rows, cols, **_):
    n_bytes = rows * (cols // 2)
    grid = (triton.cdiv(n_bytes, BLOCK_SIZE),)
    _nf4_dequantize_kernel[grid](packed, absmax, code, out, n_bytes, QB=QUANT_BLOCK,
                                 BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
