// Hardswish over an fp32 tensor: y[i] = x[i] * min(max(x[i] + 3, 0), 6) / 6,
// i.e. 0 for x <= -3, x for x >= 3 and x (x + 3) / 6 in between. A
// straightforward implementation: one thread per element (a grid-stride loop
// for very large tensors), scalar loads and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger tensors are covered by a grid-stride loop.
#define MAX_GRID 1048576

__global__ void hardswish_kernel(const float* x, float* y, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    const float gate = fminf(fmaxf(v + 3.0f, 0.0f), 6.0f);
    y[i] = v * gate / 6.0f;
  }
}

// inputs: x [rows, cols] (fp32); outputs: y [rows, cols] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(hardswish_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
