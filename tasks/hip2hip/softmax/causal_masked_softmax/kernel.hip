#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// One block per row (one query of one batch and head). Query i = row % q_len
// sees the keys c < visible = i + k_len - q_len + 1. Three passes over the
// whole row in global memory: the maximum of the visible scores, the sum of
// exp(x - max) over them, then the outputs (0 for the masked keys). Each
// reduction is a shared-memory tree over the block.
__global__ void causal_masked_softmax_kernel(const float* x, float* y, long long q_len,
                                             long long k_len) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long row = blockIdx.x;
  const long long i = row % q_len;
  const long long visible = i + k_len - q_len + 1;  // 1 <= visible <= k_len
  const float* xr = x + row * k_len;
  float* yr = y + row * k_len;

  float m = -INFINITY;
  for (long long c = t; c < k_len; c += BLOCK) {
    if (c < visible) m = fmaxf(m, xr[c]);
  }
  red[t] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (long long c = t; c < k_len; c += BLOCK) {
    if (c < visible) sum += expf(xr[c] - row_max);
  }
  red[t] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float inv = 1.0f / red[0];

  for (long long c = t; c < k_len; c += BLOCK) {
    yr[c] = c < visible ? expf(xr[c] - row_max) * inv : 0.0f;
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long k_len = inputs[0].shape[1];
  const long long q_len = static_cast<long long>(arena_param(params, num_params, "q_len", 0));
  if (q_len < 1 || q_len > k_len || rows % q_len != 0) return 1;
  if (rows == 0) return 0;
  hipLaunchKernelGGL(causal_masked_softmax_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK),
                     0, stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), q_len, k_len);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
