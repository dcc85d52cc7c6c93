import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _grouped_topk_kernel(logits_ptr, w_ptr, id_ptr, experts,
                         N_GROUPS: tl.constexpr, TOPK_GROUPS: tl.constexpr, K: tl.constexpr,
                         BLOCK_E: tl.constexpr, BLOCK_G: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program per token. Scores are sigmoids (in (0, 1)), so -1 marks
    # "not a candidate" and -2 "already taken".
    tok = tl.program_id(0).to(tl.int64)
    e = tl.arange(0, BLOCK_E)
    emask = e < experts
    x = tl.load(logits_ptr + tok * experts + e, mask=emask, other=0.0)
    s = tl.where(emask, 1.0 / (1.0 + tl.exp(-x)), -1.0)
    group_size = experts // N_GROUPS
    grp = e // group_size
    gi = tl.arange(0, BLOCK_G)
    # Group score: sum of the two best scores of the group.
    gscore = tl.full([BLOCK_G], float("-inf"), dtype=tl.float32)
    for g in tl.static_range(N_GROUPS):
        sg = tl.where(grp == g, s, -1.0)
        b1 = tl.max(sg, axis=0)
        i1 = tl.min(tl.where(sg == b1, e, BLOCK_E), axis=0)
        b2 = tl.max(tl.where(e == i1, -1.0, sg), axis=0)
        gscore = tl.where(gi == g, b1 + b2, gscore)
    # TOPK_GROUPS rounds of "best remaining group" (lowest index on ties).
    allowed = e < 0
    for i in tl.static_range(TOPK_GROUPS):
        best = tl.max(gscore, axis=0)
        gsel = tl.min(tl.where(gscore == best, gi, BLOCK_G), axis=0)
        allowed = allowed | (grp == gsel)
        gscore = tl.where(gi == gsel, float("-inf"), gscore)
    # K rounds of "best remaining expert" within the chosen groups.
    cur = tl.where(allowed & emask, s, -1.0)
    kk = tl.arange(0, BLOCK_K)
    weights = tl.zeros([BLOCK_K], dtype=tl.float32)
    ids = tl.zeros([BLOCK_K], dtype=tl.int32)
    for i in tl.static_range(K):
        best = tl.max(cur, axis=0)
        idx = tl.min(tl.where(cur == best, e, BLOCK_E), axis=0)
        weights = tl.where(kk == i, best, weights)
        ids = tl.where(kk == i, idx, ids)
        cur = tl.where(e == idx, -2.0, cur)
    weights = weights / tl.sum(weights, axis=0)
    out = tok * K + kk
    tl.store(w_ptr + out, weights, mask=kk < K)
    tl.store(id_ptr + out, ids, mask=kk < K)


def run(logits, topk_weights, topk_ids, tokens, experts, n_groups, topk_groups, k, **_):
    _grouped_topk_kernel[(tokens,)](
        logits, topk_weights, topk_ids, experts,
        N_GROUPS=n_groups, TOPK_GROUPS=topk_groups, K=k,
        BLOCK_E=triton.next_power_of_2(experts), BLOCK_G=triton.next_power_of_2(n_groups),
        BLOCK_K=triton.next_power_of_2(k), num_warps=NUM_WARPS)
