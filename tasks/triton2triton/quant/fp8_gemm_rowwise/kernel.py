import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _fp8_gemm_rowwise_kernel(x_ptr, w_ptr, xs_ptr, ws_ptr, y_ptr, M, N, K,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    m_mask = rm < M
    n_mask = rn < N
    x_row = rm.to(tl.int64) * K
    w_row = rn.to(tl.int64) * K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        k_mask = kk < K
        xb = tl.load(x_ptr + x_row[:, None] + kk[None, :],
                     mask=m_mask[:, None] & k_mask[None, :], other=0)
        # w is [N, K]; the tile is read transposed, as [BK, BN].
        wb = tl.load(w_ptr + w_row[None, :] + kk[:, None],
                     mask=k_mask[:, None] & n_mask[None, :], other=0)
        # The bytes are float8 e4m3fn: reinterpret them and widen to fp16
        # (exact) before an fp16 tl.dot.
        x = xb.to(tl.float8e4nv, bitcast=True).to(tl.float16)
        w = wb.to(tl.float8e4nv, bitcast=True).to(tl.float16)
        acc += tl.dot(x, w)
    xs = tl.load(xs_ptr + rm, mask=m_mask, other=0.0)
    ws = tl.load(ws_ptr + rn, mask=n_mask, other=0.0)
    acc = acc * xs[:, None] * ws[None, :]
    y_tile = y_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(y_tile, acc.to(tl.bfloat16), mask=m_mask[:, None] & n_mask[None, :])


def run(xq, wq, x_scale, w_scale, y, m, n, k, **_):
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _fp8_gemm_rowwise_kernel[grid](xq, wq, x_scale, w_scale, y, m, n, k,
                                   BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K,
                                   num_warps=NUM_WARPS, num_stages=NUM_STAGES)
