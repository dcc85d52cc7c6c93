import triton
import triton.language as tl

BLOCK_D = 128
NUM_WARPS = 4


@triton.jit
def _copy_kernel(dst_ptr, out_ptr, total, BLOCK: tl.constexpr):
    # Pass 1: out = dst, element by element.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    tl.store(out_ptr + offs, tl.load(dst_ptr + offs, mask=mask), mask=mask)


@triton.jit
def _index_copy_kernel(src_ptr, idx_ptr, out_ptr, ROWS, M, D, BLOCK: tl.constexpr):
    # Pass 2: one program per (source row, BLOCK-column block) overwrites
    # out[b, idx[b, j], :] with src[b, j, :].
    pid = tl.program_id(0).to(tl.int64)
    b = pid // M
    row = tl.load(idx_ptr + pid)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < D
    v = tl.load(src_ptr + pid * D + cols, mask=mask)
    tl.store(out_ptr + (b * ROWS + row) * D + cols, v, mask=mask)


def run(dst, idx, src, out, b, rows, m, d, **_):
    total = b * rows * d
    copy_block = 1024
    _copy_kernel[(triton.cdiv(total, copy_block),)](dst, out, total, BLOCK=copy_block,
                                                     num_warps=NUM_WARPS)
    _index_copy_kernel[(b * m, triton.cdiv(d, BLOCK_D))](src, idx, out, rows, m, d,
                                                          BLOCK=BLOCK_D, num_warps=NUM_WARPS)
