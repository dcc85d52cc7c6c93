import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 64
BLOCK_K = 64
NUM_WARPS = 4
NUM_STAGES = 3


@triton.jit
def _skinny_gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # One program per (BM x BN) output tile, walking the whole reduction
    # dimension on its own.
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] + k0 < K), other=0.0)
        b = tl.load(b_tile, mask=(rk[:, None] + k0 < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_tile += BK * stride_ak
        b_tile += BK * stride_bk
    c_tile = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_tile, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(a, b, c, m, n, k, **_):
    grid = (triton.cdiv(n, BLOCK_N), triton.cdiv(m, BLOCK_M))
    _skinny_gemm_kernel[grid](a, b, c, m, n, k,
                              a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                              c.stride(0), c.stride(1),
                              BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K,
                              num_warps=NUM_WARPS, num_stages=NUM_STAGES)
