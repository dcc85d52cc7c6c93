import triton
import triton.language as tl

BLOCK_Q = 32
BLOCK_K = 32
BLOCK_D = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _qk_kernel(q_ptr, k_ptr, s_ptr, Q, K, D, scale,
               BQ: tl.constexpr, BK: tl.constexpr, BD: tl.constexpr):
    # One program per (query tile, key tile) of one (batch, head): loops over
    # head_dim BD at a time, loading K^T straight from memory.
    pid = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    tiles_k = tl.cdiv(K, BK)
    pid_q = pid // tiles_k
    pid_k = pid % tiles_k
    rq = pid_q * BQ + tl.arange(0, BQ)
    rk = pid_k * BK + tl.arange(0, BK)
    rd = tl.arange(0, BD)
    q_base = q_ptr + bh * Q * D
    k_base = k_ptr + bh * K * D
    acc = tl.zeros((BQ, BK), dtype=tl.float32)
    for d0 in range(0, D, BD):
        dd = d0 + rd
        q = tl.load(q_base + rq[:, None].to(tl.int64) * D + dd[None, :],
                    mask=(rq[:, None] < Q) & (dd[None, :] < D), other=0.0)
        # [BD, BK] tile of K^T: element (d, k) is K[k, d].
        kt = tl.load(k_base + rk[None, :].to(tl.int64) * D + dd[:, None],
                     mask=(dd[:, None] < D) & (rk[None, :] < K), other=0.0)
        acc += tl.dot(q, kt)
    acc = acc * scale
    out = s_ptr + bh * Q * K + rq[:, None].to(tl.int64) * K + rk[None, :]
    tl.store(out, acc.to(tl.float16), mask=(rq[:, None] < Q) & (rk[None, :] < K))


def run(q, k, s, bh, q_len, k_len, head_dim, scale, **_):
    grid = (triton.cdiv(q_len, BLOCK_Q) * triton.cdiv(k_len, BLOCK_K), bh)
    _qk_kernel[grid](q, k, s, q_len, k_len, head_dim, float(scale),
                     BQ=BLOCK_Q, BK=BLOCK_K, BD=BLOCK_D,
                     num_warps=NUM_WARPS, num_stages=NUM_STAGES)
