// Adaptive 1-D max pooling, fp32 [N, C, L] -> [N, C, out_len]. Output i of a
// row is the maximum of x over the window [start, end) with
//   start = floor(i * L / out_len), end = ceil((i + 1) * L / out_len),
// so the windows cover the row, have uneven lengths when out_len does not
// divide L, may overlap by one element, and repeat elements when
// out_len > L. A straightforward implementation: one thread per output
// element, scanning its window straight from global memory.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void adaptive_maxpool1d_kernel(const float* x, float* out, long long total,
                                          long long L, long long LO) {
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long row = idx / LO;
    const long long i = idx - row * LO;
    const long long start = (i * L) / LO;
    const long long end = ((i + 1) * L + LO - 1) / LO;
    const float* xr = x + row * L;
    float m = -INFINITY;
    for (long long k = start; k < end; ++k) m = fmaxf(m, xr[k]);
    out[idx] = m;
  }
}

// inputs: x [N, C, L] (fp32); outputs: out [N, C, out_len] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long L = inputs[0].shape[2];
  const long long LO = outputs[0].shape[2];
  if (L < 1 || LO < 1) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(adaptive_maxpool1d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK),
                     0, stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, L, LO);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
