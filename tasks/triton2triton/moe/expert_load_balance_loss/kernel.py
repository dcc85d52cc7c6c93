import torch
import triton
import triton.language as tl

BLOCK_T = 256
NUM_WARPS = 4


@triton.jit
def _per_expert_kernel(probs_ptr, ids_ptr, psum_ptr, cnt_ptr, tokens, experts,
                       K: tl.constexpr, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program per expert: walk all tokens, summing this expert's column of
    # probs and counting the top-k slots that picked it.
    e = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    kk = tl.arange(0, BLOCK_K)
    psum = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK, BLOCK_K], dtype=tl.int32)
    for start in range(0, tokens, BLOCK):
        t = (start + rows).to(tl.int64)
        tmask = t < tokens
        psum += tl.load(probs_ptr + t * experts + e, mask=tmask, other=0.0)
        ids = tl.load(ids_ptr + t[:, None] * K + kk[None, :],
                      mask=tmask[:, None] & (kk[None, :] < K), other=-1)
        cnt += (ids == e).to(tl.int32)
    tl.store(psum_ptr + e, tl.sum(psum, axis=0))
    tl.store(cnt_ptr + e, tl.sum(tl.sum(cnt, axis=1), axis=0))


@triton.jit
def _combine_kernel(psum_ptr, cnt_ptr, loss_ptr, inv_assignments, inv_tokens, experts_f, experts,
                    BLOCK_E: tl.constexpr):
    # The scalars come as floats from the host: an integer argument equal to
    # 1 is specialized into a Python constant, which has no .to().
    e = tl.arange(0, BLOCK_E)
    emask = e < experts
    psum = tl.load(psum_ptr + e, mask=emask, other=0.0)
    cnt = tl.load(cnt_ptr + e, mask=emask, other=0).to(tl.float32)
    frac = cnt * inv_assignments
    mean_p = psum * inv_tokens
    tl.store(loss_ptr, experts_f * tl.sum(frac * mean_p, axis=0))


def run(probs, topk_ids, loss, tokens, experts, k, **_):
    psum = torch.empty((experts,), dtype=torch.float32, device=probs.device)
    cnt = torch.empty((experts,), dtype=torch.int32, device=probs.device)
    _per_expert_kernel[(experts,)](probs, topk_ids, psum, cnt, tokens, experts,
                                   K=k, BLOCK=BLOCK_T, BLOCK_K=triton.next_power_of_2(k),
                                   num_warps=NUM_WARPS)
    _combine_kernel[(1,)](psum, cnt, loss, 1.0 / (tokens * k), 1.0 / tokens, float(experts), experts,
                          BLOCK_E=triton.next_power_of_2(experts), num_warps=NUM_WARPS)
