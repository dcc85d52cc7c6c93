import triton
import triton.language as tl

SCAN_BLOCK = 1024
BLOCK_SIZE = 1024
NUM_WARPS = 4


@triton.jit
def _rank_kernel(ids_ptr, dest_ptr, n, BLOCK: tl.constexpr):
    # One program per expert e. Pass 1 counts the entries routed to experts
    # below e (the start of e's segment); pass 2 walks the flat entries in
    # order and gives each entry routed to e the next row of the segment.
    e = tl.program_id(0)
    before = tl.sum(tl.zeros([BLOCK], dtype=tl.int32), axis=0)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ids = tl.load(ids_ptr + offs, mask=offs < n, other=2147483647)
        before += tl.sum((ids < e).to(tl.int32), axis=0)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        ids = tl.load(ids_ptr + offs, mask=mask, other=-1)
        hit = (ids == e).to(tl.int32)
        rank = tl.cumsum(hit, axis=0)
        tl.store(dest_ptr + offs, before + rank - 1, mask=mask & (hit != 0))
        before += tl.sum(hit, axis=0)


@triton.jit
def _copy_rows_kernel(x_ptr, dest_ptr, out_ptr, hidden, K: tl.constexpr,
                      BLOCK: tl.constexpr):
    # Grid: (flat entries, column blocks); entry i copies row i // K of x.
    i = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < hidden
    row = tl.load(dest_ptr + i).to(tl.int64)
    vals = tl.load(x_ptr + (i // K).to(tl.int64) * hidden + cols, mask=mask)
    tl.store(out_ptr + row * hidden + cols, vals, mask=mask)


def run(x, topk_ids, out, dest, tokens, k, experts, hidden, **_):
    n = tokens * k
    _rank_kernel[(experts,)](topk_ids, dest, n, BLOCK=SCAN_BLOCK, num_warps=NUM_WARPS)
    _copy_rows_kernel[(n, triton.cdiv(hidden, BLOCK_SIZE))](
        x, dest, out, hidden, K=k, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
