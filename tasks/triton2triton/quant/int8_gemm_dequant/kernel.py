import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
GROUP_M = 1
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _int8_gemm_kernel(x_ptr, w_ptr, x_scale_ptr, w_scale_ptr, y_ptr, M, N, K,
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
    x_tile = x_ptr + rm[:, None] * stride_xm + rk[None, :] * stride_xk
    # w is [N, K]; the tile is read transposed, as [BK, BN].
    w_tile = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        x = tl.load(x_tile, mask=(rm[:, None] < M) & (rk[None, :] + k0 < K), other=0)
        w = tl.load(w_tile, mask=(rk[:, None] + k0 < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(x, w, out_dtype=tl.int32)
        x_tile += BK * stride_xk
        w_tile += BK * stride_wk
    xs = tl.load(x_scale_ptr + rm, mask=rm < M, other=0.0)
    ws = tl.load(w_scale_ptr + rn, mask=rn < N, other=0.0)
    out = acc.to(tl.float32) * xs[:, None] * ws[None, :]
    y_tile = y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn
    tl.store(y_tile, out.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x, w, x_scale, w_scale, y, m, n, k, **_):
    grid = (triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N),)
    _int8_gemm_kernel[grid](x, w, x_scale, w_scale, y, m, n, k,
                            x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                            y.stride(0), y.stride(1),
                            BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K, GM=GROUP_M,
                            num_warps=NUM_WARPS, num_stages=NUM_STAGES)
