// y = LayerNorm(GELU(x @ W^T + b)) over the last dim, fp32, with the exact
// (erf) GELU and an affine LayerNorm. A straightforward implementation in two
// kernels: one thread per element of the Linear layer + GELU (each reading a
// whole row of x and of W from global memory, no tiling), written to y; then
// one block per row normalizing y in place (mean, then variance around it,
// by shared-memory tree reductions).
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16
#define NORM_BLOCK 256

static_assert((NORM_BLOCK & (NORM_BLOCK - 1)) == 0, "NORM_BLOCK must be a power of two");

// g[row, col] = gelu(b[col] + sum_k x[row, k] * w[col, k]).
__global__ void linear_gelu_kernel(const float* x, const float* w, const float* b, float* g,
                                   long long M, long long N, long long K) {
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  for (long long rt = blockIdx.x; rt < row_tiles; rt += gridDim.x) {
    for (long long ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const long long row = rt * BLOCK_Y + threadIdx.y;
      const long long col = ct * BLOCK_X + threadIdx.x;
      if (row >= M || col >= N) continue;
      const float* xr = x + row * K;
      const float* wr = w + col * K;
      float z = b[col];
      for (long long k = 0; k < K; ++k) z += xr[k] * wr[k];
      g[row * N + col] = 0.5f * z * (1.0f + erff(z * 0.70710678118654752f));
    }
  }
}

// Sum of v over the block (blockDim.x == NORM_BLOCK), by a shared-memory tree.
__device__ float block_sum(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = NORM_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

// One block per row (grid-stride over rows): y = (g - mean) / sqrt(var + eps)
// * ln_w + ln_b with the biased variance, in place.
__global__ void layernorm_kernel(float* y, const float* ln_w, const float* ln_b, long long M,
                                 long long N, float eps) {
  __shared__ float red[NORM_BLOCK];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < M; row += gridDim.x) {
    float* yr = y + row * N;
    float s = 0.0f;
    for (long long c = t; c < N; c += NORM_BLOCK) s += yr[c];
    const float mean = block_sum(s, red) / static_cast<float>(N);
    float ss = 0.0f;
    for (long long c = t; c < N; c += NORM_BLOCK) {
      const float d = yr[c] - mean;
      ss += d * d;
    }
    const float var = block_sum(ss, red) / static_cast<float>(N);
    const float rstd = 1.0f / sqrtf(var + eps);
    for (long long c = t; c < N; c += NORM_BLOCK) yr[c] = (yr[c] - mean) * rstd * ln_w[c] + ln_b[c];
  }
}

static unsigned clamp_grid(long long n, long long limit) {
  return static_cast<unsigned>(n < limit ? n : limit);
}

// inputs: x [M, K], weight [N, K], bias [N], ln_weight [N], ln_bias [N];
// outputs: y [M, N]; parameter eps.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0], K = inputs[0].shape[1], N = inputs[1].shape[0];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-5));
  if (M == 0 || N == 0) return 0;
  float* y = static_cast<float*>(outputs[0].data);
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid(clamp_grid(row_tiles, 2147483647LL), clamp_grid(col_tiles, 65535LL));
  hipLaunchKernelGGL(linear_gelu_kernel, grid, block, 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data), y, M, N, K);
  hipLaunchKernelGGL(layernorm_kernel, dim3(clamp_grid(M, 2147483647LL)), dim3(NORM_BLOCK), 0,
                     stream, y, static_cast<const float*>(inputs[3].data),
                     static_cast<const float*>(inputs[4].data), M, N, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
