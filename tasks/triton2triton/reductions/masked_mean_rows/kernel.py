import triton
import triton.language as tl

BLOCK_N = 1024
NUM_WARPS = 4


@triton.jit
def _masked_mean_rows_kernel(x_ptr, mask_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    # One program per row, walking it in BLOCK-wide chunks with an fp32 sum
    # and an int32 count per lane of the positions whose mask byte is set.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    m_row = mask_ptr + row * cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        inb = offs < cols
        m = tl.load(m_row + offs, mask=inb, other=0)
        x = tl.load(x_row + offs, mask=inb, other=0.0).to(tl.float32)
        keep = m != 0
        acc += tl.where(keep, x, 0.0)
        cnt += keep.to(tl.int32)
    total = tl.sum(acc, axis=0)
    n = tl.sum(cnt, axis=0)
    tl.store(out_ptr + row, tl.where(n > 0, total / tl.maximum(n, 1).to(tl.float32), 0.0))


def run(x, mask, out, rows, cols, **_):
    _masked_mean_rows_kernel[(rows,)](x, mask, out, cols, BLOCK=BLOCK_N, num_warps=NUM_WARPS)
