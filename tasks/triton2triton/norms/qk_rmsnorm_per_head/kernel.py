import triton
import triton.language as tl

NUM_WARPS = 4


@triton.jit
def _head_rmsnorm_kernel(x_ptr, w_ptr, y_ptr, d, eps, BLOCK_D: tl.constexpr):
    # One program per (token, head) vector of length d: the whole vector is
    # held in one tile, normalized by its RMS and scaled by the weight.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_D)
    mask = offs < d
    x = tl.load(x_ptr + row * d + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / d
    y = x * (1.0 / tl.sqrt(ms + eps)) * w
    tl.store(y_ptr + row * d + offs, y.to(tl.bfloat16), mask=mask)


def run(q, k, q_weight, k_weight, q_out, k_out, tokens, heads, kv_heads, d, eps, **_):
    block_d = triton.next_power_of_2(d)
    _head_rmsnorm_kernel[(tokens * heads,)](q, q_weight, q_out, d, eps,
                                            BLOCK_D=block_d, num_warps=NUM_WARPS)
    _head_rmsnorm_kernel[(tokens * kv_heads,)](k, k_weight, k_out, d, eps,
                                               BLOCK_D=block_d, num_warps=NUM_WARPS)
