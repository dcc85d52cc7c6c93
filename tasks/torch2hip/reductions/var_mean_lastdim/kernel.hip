// (var, mean) of every row of an fp32 [rows, cols] matrix, as
// torch.var_mean(x, dim=-1): mean = sum(x) / cols and the unbiased
// var = sum((x - mean)^2) / (cols - 1). A straightforward implementation: one
// block per row, two passes over the row in global memory (the sum, then the
// squared deviations), each total by a shared-memory tree reduction.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

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

__global__ void var_mean_kernel(const float* x, float* var, float* mean, long long rows,
                                long long cols) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * cols;

    float s = 0.0f;
    for (long long c = t; c < cols; c += BLOCK) s += xr[c];
    const float m = block_sum(s, red) / static_cast<float>(cols);

    float ss = 0.0f;
    for (long long c = t; c < cols; c += BLOCK) {
      const float d = xr[c] - m;
      ss += d * d;
    }
    const float total = block_sum(ss, red);
    if (t == 0) {
      // cols == 1 gives 0 / 0 = NaN, as PyTorch does.
      var[row] = total / static_cast<float>(cols - 1);
      mean[row] = m;
    }
  }
}

// inputs: x [rows, cols]; outputs: var [rows], mean [rows] (in that order, as
// torch.var_mean returns them).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(var_mean_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), static_cast<float*>(outputs[1].data),
                     rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
