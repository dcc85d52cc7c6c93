// y = softmax(x, dim=-1), fp32. A straightforward implementation: one block
// per row (a grid-stride loop over rows), three passes over the row in
// global memory (the maximum, the sum of exp(x - max), then the outputs),
// each reduction a shared-memory tree.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128
#define MAX_GRID 1048576

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

__global__ void softmax_kernel(const float* x, float* y, long long rows, long long cols) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;

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
    const float total = red[0];
    __syncthreads();  // red is rewritten by the next row

    for (long long c = t; c < cols; c += BLOCK) yr[c] = expf(xr[c] - row_max) / total;
  }
}

// inputs: x [rows, cols]; outputs: y [rows, cols].
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(softmax_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
