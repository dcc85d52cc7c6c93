// LayerNorm over the rows of an fp16 matrix with fp16 weight and bias,
// computed in fp32. A straightforward implementation: one block per row, three
// passes over the row in global memory (mean, variance, output), each sum by a
// shared-memory tree reduction.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

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

// y[r, d] = (x[r, d] - mean_r) / sqrt(var_r + eps) * w[d] + b[d], with the
// biased variance (divide by D).
__global__ void layernorm_kernel(const __half* x, const __half* w, const __half* b, __half* y,
                                 long long rows, long long D, float eps) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    const __half* xr = x + row * D;
    __half* yr = y + row * D;

    float s = 0.0f;
    for (long long d = t; d < D; d += BLOCK) s += __half2float(xr[d]);
    const float mean = block_sum(s, red) / static_cast<float>(D);

    float ss = 0.0f;
    for (long long d = t; d < D; d += BLOCK) {
      const float v = __half2float(xr[d]) - mean;
      ss += v * v;
    }
    const float var = block_sum(ss, red) / static_cast<float>(D);
    const float rstd = 1.0f / sqrtf(var + eps);

    for (long long d = t; d < D; d += BLOCK) {
      const float v = (__half2float(xr[d]) - mean) * rstd;
      yr[d] = __float2half(v * __half2float(w[d]) + __half2float(b[d]));
    }
  }
}

// inputs: x [rows, D], weight [D], bias [D] (all fp16); outputs: y [rows, D] (fp16).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long D = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-5));
  if (rows == 0 || D == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(layernorm_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const __half*>(inputs[0].data),
                     static_cast<const __half*>(inputs[1].data),
                     static_cast<const __half*>(inputs[2].data),
                     static_cast<__half*>(outputs[0].data), rows, D, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
