// y = hardtanh(x * sigmoid(x), min_val, max_val), fp32. A straightforward
// implementation: one thread per element (a grid-stride loop for very large
// tensors), scalar loads and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256
#define MAX_GRID 1048576

__global__ void swish_hardtanh_kernel(const float* x, float* y, long long n, float lo, float hi) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    const float s = v * (1.0f / (1.0f + expf(-v)));
    y[i] = fminf(fmaxf(s, lo), hi);
  }
}

// inputs: x [rows, cols]; outputs: y [rows, cols]; params: min_val, max_val.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const float lo = static_cast<float>(arena_param(params, num_params, "min_val", -1.0));
  const float hi = static_cast<float>(arena_param(params, num_params, "max_val", 1.0));
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(swish_hardtanh_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), n, lo, hi);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
