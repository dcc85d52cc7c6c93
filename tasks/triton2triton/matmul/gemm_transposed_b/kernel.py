import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
GROUP_M = 1
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _gemm_nt_kernel(x_ptr, w_ptr, y_ptr, M, N, K,
                    stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    # Tile order: GM rows of tiles are walked column by column (GM = 1 is
    # plain row-major order).
    per_group = GM * tiles_n
    first_m = (pid // per_group) * GM
    rows = tl.minimum(tiles_m - first_m, GM)
    pid_m = first_m + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows

    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x_tile = x_ptr + rm[:, None].to(tl.int64) * stride_xm + rk[None, :] * stride_xk
    # [BK, BN] tile of w^T: element (k, n) is w[n, k].
    wt_tile = w_ptr + rk[:, None] * stride_wk + rn[None, :].to(tl.int64) * stride_wn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(x_tile, mask=(rm[:, None] < M) & (rk[None, :] + k0 < K), other=0.0)
        wt = tl.load(wt_tile, mask=(rk[:, None] + k0 < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, wt)
        x_tile += BK * stride_xk
        wt_tile += BK * stride_wk
    y_tile = y_ptr + rm[:, None].to(tl.int64) * stride_ym + rn[None, :] * stride_yn
    tl.store(y_tile, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x, w, y, m, n, k, **_):
    grid = (triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N),)
    _gemm_nt_kernel[grid](x, w, y, m, n, k,
                          x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                          y.stride(0), y.stride(1),
                          BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K, GM=GROUP_M,
                          num_warps=NUM_WARPS, num_stages=NUM_STAGES)
