import triton
import triton.language as tl

BLOCK_SIZE = 256
NUM_WARPS = 4


@triton.jit
def _dequantize_kernel(packed_ptr, scales_ptr, zeros_ptr, out_ptr, cols, group_size,
                       BLOCK: tl.constexpr):
    # Grid: (rows, blocks of packed bytes); each program expands BLOCK bytes
    # of one row into 2 * BLOCK fp16 values.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    half = cols // 2
    mask = offs < half
    byte = tl.load(packed_ptr + row * half + offs, mask=mask, other=0).to(tl.int32)
    q_even = (byte & 0xF).to(tl.float32)
    q_odd = ((byte >> 4) & 0xF).to(tl.float32)
    # Both columns of a byte lie in the same group (group_size is even).
    groups = cols // group_size
    g = row * groups + (2 * offs) // group_size
    s = tl.load(scales_ptr + g, mask=mask, other=0.0).to(tl.float32)
    z = tl.load(zeros_ptr + g, mask=mask, other=0.0).to(tl.float32)
    out_row = out_ptr + row * cols
    tl.store(out_row + 2 * offs, ((q_even - z) * s).to(tl.float16), mask=mask)
    tl.store(out_row + 2 * offs + 1, ((q_odd - z) * s).to(tl.float16), mask=mask)


def run(packed, scales, zeros, out, rows, cols, group_size, **_):
    grid = (rows, triton.cdiv(cols // 2, BLOCK_SIZE))
    _dequantize_kernel[grid](packed, scales, zeros, out, cols, group_size,
                             BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
