#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// One small block per row, three passes over global memory: the row maximum,
// the sum of exp(x - max), then y = x - max - log(sum). Each reduction is a
// shared-memory tree over the block.
__global__ void log_softmax_rows_kernel(const float* x, float* y, long long cols) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const float* xr = x + static_cast<long long>(blockIdx.x) * cols;
  float* yr = y + static_cast<long long>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (long long c = t; c < cols; c += BLOCK) m = fmaxf(m, xr[c]);
  red[t] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) sum += expf(xr[c] - row_max);
  red[t] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float log_sum = logf(red[0]);

  for (long long c = t; c < cols; c += BLOCK) yr[c] = xr[c] - row_max - log_sum;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  hipLaunchKernelGGL(log_softmax_rows_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
