#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 128

// One thread per rotated pair (token t, head h, i < half): it reads the
// token's position, q[t, h, i] and q[t, h, i + half] and the table entries
// cos[pos, i], sin[pos, i], and writes both outputs of the pair.
__global__ void rope_kernel(const __half* q, const int* positions, const float* cos_table,
                            const float* sin_table, __half* out, long long pairs, int heads,
                            int half) {
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= pairs) return;
  const long long i = idx % half;
  const long long th = idx / half;  // token * heads + head
  const long long t = th / heads;
  const long long pos = positions[t];
  const float c = cos_table[pos * half + i];
  const float s = sin_table[pos * half + i];
  const long long base = th * (2LL * half);
  const float x1 = __half2float(q[base + i]);
  const float x2 = __half2float(q[base + i + half]);
  out[base + i] = __float2half(x1 * c - x2 * s);
  out[base + i + half] = __float2half(x2 * c + x1 * s);
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long tokens = inputs[0].shape[0];
  const int heads = static_cast<int>(inputs[0].shape[1]);
  const int head_dim = static_cast<int>(inputs[0].shape[2]);
  if (head_dim % 2 != 0) return 1;
  const int half = head_dim / 2;
  const long long pairs = tokens * heads * half;
  if (pairs == 0) return 0;
  const unsigned grid = static_cast<unsigned>((pairs + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(rope_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const int*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<const float*>(inputs[3].data),
                     static_cast<__half*>(outputs[0].data), pairs, heads, half);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
