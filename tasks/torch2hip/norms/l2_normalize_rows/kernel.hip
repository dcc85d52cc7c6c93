// Row-wise L2 normalization of an fp32 [rows, cols] matrix, as
// F.normalize(x, p=2, dim=1, eps):
//   y[r, c] = x[r, c] / max(sqrt(sum_c x[r, c]^2), eps).
// A straightforward implementation: one block per row (a grid-stride loop
// over rows), two passes over the row in global memory (the sum of squares,
// then the output), the sum by a shared-memory tree reduction, scalar loads
// and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// The sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_reduce_sum(float v, float* scratch) {
  const int t = threadIdx.x;
  scratch[t] = v;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();  // scratch is rewritten by the next call
  return total;
}

__global__ void l2_normalize_kernel(const float* x, float* y, long long rows, long long cols,
                                    float eps) {
  __shared__ float scratch[BLOCK];
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float acc = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += BLOCK) {
      const float v = xr[c];
      acc += v * v;
    }
    const float norm = sqrtf(block_reduce_sum(acc, scratch));
    const float denom = fmaxf(norm, eps);
    for (long long c = threadIdx.x; c < cols; c += BLOCK) yr[c] = xr[c] / denom;
  }
}

// inputs: x [rows, cols] (fp32); outputs: y [rows, cols] (fp32); parameter eps.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-12));
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(l2_normalize_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
