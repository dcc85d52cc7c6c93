#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// One block per row, two passes over the row in global memory: the maximum,
// then the sum of exp(x - max); each reduction is a shared-memory tree.
// loss[r] = max + log(sum) - logits[r, target[r]].
__global__ void cross_entropy_kernel(const float* logits, const int* target, float* loss,
                                     long long vocab) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long r = blockIdx.x;
  const float* xr = logits + r * vocab;

  float m = -INFINITY;
  for (long long c = t; c < vocab; c += BLOCK) m = fmaxf(m, xr[c]);
  red[t] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (long long c = t; c < vocab; c += BLOCK) sum += expf(xr[c] - row_max);
  red[t] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  if (t == 0) {
    const int tgt = target[r];
    loss[r] = row_max + logf(red[0]) - xr[tgt];
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long vocab = inputs[0].shape[1];
  if (rows == 0) return 0;
  hipLaunchKernelGGL(cross_entropy_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const int*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), vocab);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
