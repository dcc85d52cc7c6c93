import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _w4a16_gemm_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, GROUP, n_groups,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Grid: (tiles of M, tiles of N). Each program computes one BM x BN tile
    # of y and, for every k step, unpacks its BK x BN slice of w element by
    # element: every weight byte is loaded twice and every scale BK times.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    m_mask = rm < M
    n_mask = rn < N
    half_k = K // 2
    w_row = rn.to(tl.int64) * half_k
    s_row = rn.to(tl.int64) * n_groups
    x_row = rm.to(tl.int64) * K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        k_mask = kk < K
        x = tl.load(x_ptr + x_row[:, None] + kk[None, :],
                    mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        wmask = k_mask[:, None] & n_mask[None, :]
        byte = tl.load(w_ptr + w_row[None, :] + (kk // 2)[:, None], mask=wmask, other=0)
        shift = (kk % 2) * 4
        q = (byte.to(tl.int32) >> shift[:, None]) & 0xF
        s = tl.load(s_ptr + s_row[None, :] + (kk // GROUP)[:, None], mask=wmask, other=0.0)
        w = ((q - 8).to(tl.float32) * s.to(tl.float32)).to(tl.float16)
        acc += tl.dot(x, w)
    y_tile = y_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(y_tile, acc.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


def run(x, w, scales, y, m, n, k, group_size, **_):
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _w4a16_gemm_kernel[grid](x, w, scales, y, m, n, k, group_size, k // group_size,
                             BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K,
                             num_warps=NUM_WARPS, num_stages=NUM_STAGES)
