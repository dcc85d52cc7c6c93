import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _append_kernel(key_ptr, value_ptr, slot_ptr, kc_ptr, vc_ptr, kv_heads, head_dim,
                   BLOCK_D: tl.constexpr):
    # One program per (token, kv head): copies one head_dim row of the new
    # key and value into the cache row its slot names (nothing for slot -1).
    t = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1).to(tl.int64)
    slot = tl.load(slot_ptr + t)
    if slot >= 0:
        rd = tl.arange(0, BLOCK_D)
        mask = rd < head_dim
        src = (t * kv_heads + h) * head_dim + rd
        dst = (slot * kv_heads + h) * head_dim + rd
        k = tl.load(key_ptr + src, mask=mask)
        tl.store(kc_ptr + dst, k, mask=mask)
        v = tl.load(value_ptr + src, mask=mask)
        tl.store(vc_ptr + dst, v, mask=mask)


def run(key, value, slot_mapping, k_cache, v_cache,
        tokens, kv_heads, head_dim, block_size, num_blocks, **_):
    grid = (tokens, kv_heads)
    _append_kernel[grid](key, value, slot_mapping, k_cache, v_cache, kv_heads, head_dim,
                         BLOCK_D=triton.next_power_of_2(head_dim), num_warps=NUM_WARPS)
