import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _rope_append_kernel(key_ptr, value_ptr, pos_ptr, cos_ptr, sin_ptr, slot_ptr,
                        kc_ptr, vc_ptr, kv_heads, head_dim,
                        BLOCK_H: tl.constexpr):
    # One program per (token, kv head): rotates one key row (neox halves) with
    # the cos/sin row of the token's position and writes it, and the value
    # row unchanged, to the cache row of the token's slot.
    t = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1).to(tl.int64)
    half = head_dim // 2
    slot = tl.load(slot_ptr + t)
    pos = tl.load(pos_ptr + t).to(tl.int64)
    rh = tl.arange(0, BLOCK_H)
    mask = rh < half
    src = (t * kv_heads + h) * head_dim
    dst = (slot * kv_heads + h) * head_dim
    c = tl.load(cos_ptr + pos * half + rh, mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos * half + rh, mask=mask, other=0.0)
    x1 = tl.load(key_ptr + src + rh, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(key_ptr + src + half + rh, mask=mask, other=0.0).to(tl.float32)
    tl.store(kc_ptr + dst + rh, (x1 * c - x2 * s).to(tl.float16), mask=mask)
    tl.store(kc_ptr + dst + half + rh, (x2 * c + x1 * s).to(tl.float16), mask=mask)
    v1 = tl.load(value_ptr + src + rh, mask=mask)
    v2 = tl.load(value_ptr + src + half + rh, mask=mask)
    tl.store(vc_ptr + dst + rh, v1, mask=mask)
    tl.store(vc_ptr + dst + half + rh, v2, mask=mask)


def run(key, value, positions, cos, sin, slot_mapping, k_cache, v_cache,
        tokens, kv_heads, head_dim, num_slots, max_pos, **_):
    grid = (tokens, kv_heads)
    _rope_append_kernel[grid](key, value, positions, cos, sin, slot_mapping,
                              k_cache, v_cache, kv_heads, head_dim,
                              BLOCK_H=triton.next_power_of_2(head_dim // 2),
                              num_warps=NUM_WARPS)
