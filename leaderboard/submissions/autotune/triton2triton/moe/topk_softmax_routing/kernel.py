import triton
import triton.language as tl

NUM_WARPS = 1


@triton.jit
def _route_kernel(logits_ptr, w_ptr, id_ptr, experts,
                  K: tl.constexpr, RENORM: tl.constexpr,
                  BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program per token: softmax over the experts, then K rounds of
    # "take the largest remaining logit" (lowest index on ties).
    tok = tl.program_id(0).to(tl.int64)
    e = tl.arange(0, BLOCK_E)
    emask = e < experts
    x = tl.load(logits_ptr + tok * experts + e, mask=emask, other=-float("inf"))
    m = tl.max(x, axis=0)
    p = tl.where(emask, tl.exp(x - m), 0.0)
    denom = tl.sum(p, axis=0)
    kk = tl.arange(0, BLOCK_K)
    weights = tl.zeros([BLOCK_K], dtype=tl.float32)
    ids = tl.zeros([BLOCK_K], dtype=tl.int32)
    cur = x
    for i in tl.static_range(K):
        best = tl.max(cur, axis=0)
        idx = tl.min(tl.where(cur == best, e, BLOCK_E), axis=0)
        weights = tl.where(kk == i, tl.exp(best - m) / denom, weights)
        ids = tl.where(kk == i, idx, ids)
        cur = tl.where(e == idx, -float("inf"), cur)
    if RENORM:
        weights = weights / tl.sum(weights, axis=0)
    out = tok * K + kk
    tl.store(w_ptr + out, weights, mask=kk < K)
    tl.store(id_ptr + out, ids, mask=kk < K)


def run(logits, topk_weights, topk_ids, tokens, experts, k, renormalize, **_):
    _route_kernel[(tokens,)](
        logits, topk_weights, topk_ids, experts,
        K=k, RENORM=bool(renormalize),
        BLOCK_E=triton.next_power_of_2(experts), BLOCK_K=triton.next_power_of_2(k),
        num_warps=NUM_WARPS)
