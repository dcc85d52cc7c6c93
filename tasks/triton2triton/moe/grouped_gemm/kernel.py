import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _grouped_gemm_kernel(x_ptr, w_ptr, y_ptr, off_ptr, tokens, N, K, experts,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # One program per (row tile, column tile) of y. It scans every expert's
    # row range and runs a full K loop for each expert that overlaps its rows
    # (a tile that straddles a group boundary is computed once per group).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    row_lo = pid_m * BM
    rm = row_lo + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rm64 = rm.to(tl.int64)
    col_ok = rn < N
    e = tl.zeros([], dtype=tl.int64)
    for _i in range(0, experts):
        start = tl.load(off_ptr + e)
        end = tl.load(off_ptr + e + 1)
        if (start < row_lo + BM) & (end > row_lo) & (start < end):
            rows = (rm >= start) & (rm < end)
            w_base = w_ptr + e * K * N
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, K, BK):
                kk = k0 + rk
                a = tl.load(x_ptr + rm64[:, None] * K + kk[None, :],
                            mask=rows[:, None] & (kk[None, :] < K), other=0.0)
                b = tl.load(w_base + kk[:, None].to(tl.int64) * N + rn[None, :],
                            mask=(kk[:, None] < K) & col_ok[None, :], other=0.0)
                acc += tl.dot(a, b)
            tl.store(y_ptr + rm64[:, None] * N + rn[None, :], acc.to(tl.float16),
                     mask=rows[:, None] & col_ok[None, :])
        e += 1


def run(x, w, expert_offsets, y, tokens, k, n, experts, **_):
    grid = (triton.cdiv(tokens, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _grouped_gemm_kernel[grid](x, w, y, expert_offsets, tokens, n, k, experts,
                               BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K,
                               num_warps=NUM_WARPS, num_stages=NUM_STAGES)
