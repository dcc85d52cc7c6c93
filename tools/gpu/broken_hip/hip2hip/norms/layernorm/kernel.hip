// Deliberately broken candidate: a kernel that never ends.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// Sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_sum(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

// One block per row: the mean, then the (biased) variance around it, then the
// normalized, scaled and shifted outputs; three passes over the row.
__global__ void layernorm_kernel(const __half* x, const float* w, const float* b, __half* y,
                                 long long cols, float eps) {
  // Never ends: the clock never reads negative, and ptxas keeps the loop
  // (a side-effect-free loop on a constant is removed).
  while (clock64() >= 0) {
  }

  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const __half* xr = x + static_cast<long long>(blockIdx.x) * cols;
  __half* yr = y + static_cast<long long>(blockIdx.x) * cols;

  float s = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) s += __half2float(xr[c]);
  const float mean = block_sum(s, red) / static_cast<float>(cols);

  float ss = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) {
    const float d = __half2float(xr[c]) - mean;
    ss += d * d;
  }
  const float var = block_sum(ss, red) / static_cast<float>(cols);
  const float rstd = 1.0f / sqrtf(var + eps);

  for (long long c = t; c < cols; c += BLOCK) {
    const float d = __half2float(xr[c]) - mean;
    yr[c] = __float2half(d * rstd * w[c] + b[c]);
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-5));
  if (rows == 0 || cols == 0) return 0;
  hipLaunchKernelGGL(layernorm_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<__half*>(outputs[0].data), cols, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
