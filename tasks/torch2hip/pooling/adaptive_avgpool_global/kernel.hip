// Global average pooling, fp32 NCHW: y[n, c] = mean over h, w of x[n, c, h, w].
// A straightforward implementation: one block per (n, c) plane, each thread
// summing a strided slice of the plane, then a shared-memory tree reduction.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more planes are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void global_avgpool_kernel(const float* x, float* y, long long planes, long long hw) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long p = blockIdx.x; p < planes; p += gridDim.x) {
    const float* xp = x + p * hw;
    float s = 0.0f;
    for (long long i = t; i < hw; i += BLOCK) s += xp[i];
    red[t] = s;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
      if (t < stride) red[t] += red[t + stride];
      __syncthreads();
    }
    if (t == 0) y[p] = red[0] / static_cast<float>(hw);
    __syncthreads();  // red is reused by the next plane
  }
}

// inputs: x [N, C, H, W]; outputs: y [N, C].
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long planes = inputs[0].shape[0] * inputs[0].shape[1];
  const long long hw = inputs[0].shape[2] * inputs[0].shape[3];
  if (planes == 0) return 0;
  const long long blocks = planes < MAX_GRID ? planes : MAX_GRID;
  hipLaunchKernelGGL(global_avgpool_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), planes, hw);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
