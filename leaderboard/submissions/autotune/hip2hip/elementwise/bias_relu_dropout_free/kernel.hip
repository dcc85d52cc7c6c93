#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 256

// Pass 1: y[r, c] = x[r, c] + bias[c], rounded to fp16 and stored in y.
__global__ void bias_add_kernel(const __half* x, const __half* bias, __half* y, long long n,
                                long long cols) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const long long c = i % cols;
    y[i] = __float2half(__half2float(x[i]) + __half2float(bias[c]));
  }
}

// Pass 2: y = relu(y) * scale, reading back what pass 1 wrote.
__global__ void relu_scale_kernel(__half* y, long long n, float scale) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = __half2float(y[i]);
    y[i] = __float2half(fmaxf(v, 0.0f) * scale);
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const long long cols = inputs[0].shape[1];
  const float scale = static_cast<float>(arena_param(params, num_params, "scale", 1.0));
  if (n == 0) return 0;
  const unsigned grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
  __half* y = static_cast<__half*>(outputs[0].data);
  hipLaunchKernelGGL(bias_add_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const __half*>(inputs[1].data), y, n, cols);
  hipLaunchKernelGGL(relu_scale_kernel, dim3(grid), dim3(BLOCK), 0, stream, y, n, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
