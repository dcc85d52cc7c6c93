import torch
import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
NUM_WARPS = 4


@triton.jit
def _shrink_kernel(x_ptr, a_ptr, t_ptr, M, K, R,
                   BM: tl.constexpr, BK: tl.constexpr, BR: tl.constexpr):
    # t[BM rows, all R] = x @ A, kept in fp32.
    pid_m = tl.program_id(0)
    rm = pid_m * BM + tl.arange(0, BM)
    rr = tl.arange(0, BR)
    rk = tl.arange(0, BK)
    m_mask = rm < M
    acc = tl.zeros((BM, BR), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(x_ptr + rm.to(tl.int64)[:, None] * K + kk[None, :],
                    mask=m_mask[:, None] & (kk[None, :] < K), other=0.0)
        a = tl.load(a_ptr + kk.to(tl.int64)[:, None] * R + rr[None, :],
                    mask=(kk[:, None] < K) & (rr[None, :] < R), other=0.0)
        acc += tl.dot(x, a)
    tl.store(t_ptr + rm.to(tl.int64)[:, None] * BR + rr[None, :], acc, mask=m_mask[:, None])


@triton.jit
def _expand_kernel(t_ptr, b_ptr, base_ptr, y_ptr, M, N, R, scale,
                   BM: tl.constexpr, BN: tl.constexpr, BR: tl.constexpr):
    # y tile = base + scale * (t @ B); t is read back from memory in fp32.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rr = tl.arange(0, BR)
    m_mask = rm < M
    n_mask = rn < N
    t = tl.load(t_ptr + rm.to(tl.int64)[:, None] * BR + rr[None, :],
                mask=m_mask[:, None], other=0.0)
    bw = tl.load(b_ptr + rr.to(tl.int64)[:, None] * N + rn[None, :],
                 mask=(rr[:, None] < R) & n_mask[None, :], other=0.0)
    acc = tl.dot(t, bw.to(tl.float32))
    mask = m_mask[:, None] & n_mask[None, :]
    offs = rm.to(tl.int64)[:, None] * N + rn[None, :]
    base = tl.load(base_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (base + scale * acc).to(tl.float16), mask=mask)


def run(x, a, b, base, y, m, n, k, r, scale, **_):
    br = max(16, triton.next_power_of_2(r))
    t = torch.empty((m, br), dtype=torch.float32, device=x.device)
    _shrink_kernel[(triton.cdiv(m, BLOCK_M),)](x, a, t, m, k, r, BM=BLOCK_M, BK=BLOCK_K,
                                               BR=br, num_warps=NUM_WARPS)
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _expand_kernel[grid](t, b, base, y, m, n, r, scale, BM=BLOCK_M, BN=BLOCK_N, BR=br,
                         num_warps=NUM_WARPS)
