// ELU over an fp32 tensor: y[i] = x[i] if x[i] > 0, else alpha * (exp(x[i]) - 1)
// (computed with expm1f, which stays accurate for x near 0). A straightforward
// implementation: one thread per element (a grid-stride loop for very large
// tensors), scalar loads and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger tensors are covered by a grid-stride loop.
#define MAX_GRID 1048576

__global__ void elu_kernel(const float* x, float* y, long long n, float alpha) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    y[i] = v > 0.0f ? v : alpha * expm1f(v);
  }
}

// inputs: x [rows, cols] (fp32); outputs: y [rows, cols] (fp32); parameter alpha.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const float alpha = static_cast<float>(arena_param(params, num_params, "alpha", 1.0));
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(elu_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), n, alpha);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
