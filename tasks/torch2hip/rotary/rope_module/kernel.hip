// Neox rotary embedding of q [batch, seq, heads, head_dim], fp16 in and out,
// computed in float with the module's fp32 cos/sin tables [max_seq, head_dim]:
//   y[b, s, h, d] = q[b, s, h, d] * cos[s, d] + r[b, s, h, d] * sin[s, d],
//   r = concat(-q[..., half:], q[..., :half]), half = head_dim / 2.
// A straightforward implementation: one thread per output element (a
// grid-stride loop for very large tensors), scalar 16-bit loads, the partner
// element and both table values read straight from global memory.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger tensors are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void rope_kernel(const __half* q, const float* cos_t, const float* sin_t, __half* y,
                            long long total, long long seq, long long heads, long long head_dim) {
  const long long half = head_dim / 2;
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long d = idx % head_dim;
    const long long s = (idx / (head_dim * heads)) % seq;
    const float x = __half2float(q[idx]);
    // The rotated partner: -q[d + half] for the first half, q[d - half] for the second.
    const float partner = d < half ? -__half2float(q[idx + half]) : __half2float(q[idx - half]);
    const float c = cos_t[s * head_dim + d];
    const float sn = sin_t[s * head_dim + d];
    y[idx] = __float2half(x * c + partner * sn);
  }
}

// inputs: q [batch, seq, heads, head_dim] (fp16), cos_cached [max_seq, head_dim] (fp32),
// sin_cached [max_seq, head_dim] (fp32); outputs: y [batch, seq, heads, head_dim] (fp16).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long seq = inputs[0].shape[1];
  const long long heads = inputs[0].shape[2];
  const long long head_dim = inputs[0].shape[3];
  if (head_dim % 2 != 0 || inputs[1].shape[1] != head_dim || inputs[1].shape[0] < seq) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(rope_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<__half*>(outputs[0].data), total, seq, heads, head_dim);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
