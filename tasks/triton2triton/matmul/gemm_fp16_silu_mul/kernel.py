import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
GROUP_M = 1
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _gated_up_kernel(a_ptr, w1_ptr, w2_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_wk, stride_wn, stride_cm, stride_cn,
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
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_offs = rk[:, None] * stride_wk + rn[None, :] * stride_wn
    gate = tl.zeros((BM, BN), dtype=tl.float32)
    up = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] + k0 < K), other=0.0)
        w_mask = (rk[:, None] + k0 < K) & (rn[None, :] < N)
        w1 = tl.load(w1_ptr + w_offs, mask=w_mask, other=0.0)
        w2 = tl.load(w2_ptr + w_offs, mask=w_mask, other=0.0)
        gate += tl.dot(a, w1)
        up += tl.dot(a, w2)
        a_tile += BK * stride_ak
        w_offs += BK * stride_wk
    out = gate / (1.0 + tl.exp(-gate)) * up
    c_tile = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_tile, out.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(a, w1, w2, c, m, n, k, **_):
    grid = (triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N),)
    _gated_up_kernel[grid](a, w1, w2, c, m, n, k,
                           a.stride(0), a.stride(1), w1.stride(0), w1.stride(1),
                           c.stride(0), c.stride(1),
                           BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K, GM=GROUP_M,
                           num_warps=NUM_WARPS, num_stages=NUM_STAGES)
