// GroupNorm, fp32 NCHW: the C channels are split into G groups of C / G
// consecutive channels; each (n, group) is normalized by its own mean and
// biased variance over its (C / G) * H * W values, then scaled and shifted per
// channel. A straightforward implementation: one block per (n, group), three
// passes over the group in global memory (mean, variance, output), each sum by
// a shared-memory tree reduction.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more groups are covered by a grid-stride loop.
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

// Group gi = n * G + g covers the contiguous values x[gi * cpg * HW ...] of the
// channels c = g * cpg ... g * cpg + cpg - 1 of image n (cpg = C / G).
__global__ void groupnorm_kernel(const float* x, const float* weight, const float* bias, float* y,
                                 long long groups, long long G, long long cpg, long long HW,
                                 float eps) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long len = cpg * HW;
  for (long long gi = blockIdx.x; gi < groups; gi += gridDim.x) {
    const float* xg = x + gi * len;
    float* yg = y + gi * len;
    const long long c0 = (gi % G) * cpg;

    float s = 0.0f;
    for (long long i = t; i < len; i += BLOCK) s += xg[i];
    const float mean = block_sum(s, red) / static_cast<float>(len);

    float ss = 0.0f;
    for (long long i = t; i < len; i += BLOCK) {
      const float d = xg[i] - mean;
      ss += d * d;
    }
    const float var = block_sum(ss, red) / static_cast<float>(len);
    const float rstd = 1.0f / sqrtf(var + eps);

    for (long long i = t; i < len; i += BLOCK) {
      const long long c = c0 + i / HW;
      yg[i] = (xg[i] - mean) * rstd * weight[c] + bias[c];
    }
  }
}

// inputs: x [N, C, H, W], weight [C], bias [C]; outputs: y [N, C, H, W];
// parameter G (the number of groups, dividing C).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long N = inputs[0].shape[0], C = inputs[0].shape[1];
  const long long HW = inputs[0].shape[2] * inputs[0].shape[3];
  const long long G = static_cast<long long>(arena_param(params, num_params, "G", 1));
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-5));
  if (G <= 0 || C % G != 0) return 1;
  const long long groups = N * G;
  if (groups == 0 || C == 0 || HW == 0) return 0;
  const long long blocks = groups < MAX_GRID ? groups : MAX_GRID;
  hipLaunchKernelGGL(groupnorm_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), groups, G, C / G, HW, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
