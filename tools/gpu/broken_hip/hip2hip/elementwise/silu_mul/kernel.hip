// Deliberately broken candidate: does not compile (an undeclared identifier).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 128

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    float s = av / (1.0f + expf(-av)) * silu_gain;
    y[i] = __float2half(s * bv);
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const unsigned grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(silu_mul_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const __half*>(inputs[1].data),
                     static_cast<__half*>(outputs[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
