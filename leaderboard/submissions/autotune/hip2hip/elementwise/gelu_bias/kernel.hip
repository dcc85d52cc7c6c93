#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 256

// y[r, c] = gelu_tanh(x[r, c] + bias[c]), computed in float.
__global__ void gelu_bias_kernel(const __half* x, const __half* bias, __half* y, long long n,
                                 long long cols) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const long long c = i % cols;
    const float v = __half2float(x[i]) + __half2float(bias[c]);
    const float k0 = 0.7978845608028654f;  // sqrt(2 / pi)
    const float k1 = 0.044715f;
    const float t = tanhf(k0 * (v + k1 * v * v * v));
    y[i] = __float2half(0.5f * v * (1.0f + t));
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const long long cols = inputs[0].shape[1];
  if (n == 0) return 0;
  const unsigned grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(gelu_bias_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const __half*>(inputs[1].data),
                     static_cast<__half*>(outputs[0].data), n, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
