import triton
import triton.language as tl

BLOCK_K = 32
BLOCK_D = 32
BLOCK_Q = 32
NUM_WARPS = 4
NUM_STAGES = 2


@triton.jit
def _dv_kernel(p_ptr, do_ptr, dv_ptr, Q, K, D,
               BK: tl.constexpr, BD: tl.constexpr, BQ: tl.constexpr):
    # One program per (key tile, head_dim tile) of one (batch, head): loops
    # over all queries, loading P transposed straight from memory.
    pid = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    tiles_d = tl.cdiv(D, BD)
    pid_k = pid // tiles_d
    pid_d = pid % tiles_d
    rk = pid_k * BK + tl.arange(0, BK)
    rd = pid_d * BD + tl.arange(0, BD)
    rq = tl.arange(0, BQ)
    p_base = p_ptr + bh * Q * K
    do_base = do_ptr + bh * Q * D
    acc = tl.zeros((BK, BD), dtype=tl.float32)
    for q0 in range(0, Q, BQ):
        qq = q0 + rq
        # [BK, BQ] tile of P^T: element (k, q) is P[q, k].
        pt = tl.load(p_base + qq[None, :].to(tl.int64) * K + rk[:, None],
                     mask=(rk[:, None] < K) & (qq[None, :] < Q), other=0.0)
        do = tl.load(do_base + qq[:, None].to(tl.int64) * D + rd[None, :],
                     mask=(qq[:, None] < Q) & (rd[None, :] < D), other=0.0)
        acc += tl.dot(pt, do)
    out = dv_ptr + bh * K * D + rk[:, None].to(tl.int64) * D + rd[None, :]
    tl.store(out, acc.to(tl.float16), mask=(rk[:, None] < K) & (rd[None, :] < D))


def run(p, d_o, dv, bh, q_len, k_len, head_dim, **_):
    grid = (triton.cdiv(k_len, BLOCK_K) * triton.cdiv(head_dim, BLOCK_D), bh)
    _dv_kernel[grid](p, d_o, dv, q_len, k_len, head_dim,
                     BK=BLOCK_K, BD=BLOCK_D, BQ=BLOCK_Q,
                     num_warps=NUM_WARPS, num_stages=NUM_STAGES)
