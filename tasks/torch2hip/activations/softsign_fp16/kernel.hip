// Softsign over an fp16 tensor: y[i] = x[i] / (1 + |x[i]|), computed in float
// and rounded once to fp16. A straightforward implementation: one thread per
// element (a grid-stride loop for very large tensors), scalar 16-bit loads and
// stores.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger tensors are covered by a grid-stride loop.
#define MAX_GRID 1048576

__global__ void softsign_kernel(const __half* x, __half* y, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float v = __half2float(x[i]);
    y[i] = __float2half(v / (1.0f + fabsf(v)));
  }
}

// inputs: x [rows, cols] (fp16); outputs: y [rows, cols] (fp16).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(softsign_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const __half*>(inputs[0].data),
                     static_cast<__half*>(outputs[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
