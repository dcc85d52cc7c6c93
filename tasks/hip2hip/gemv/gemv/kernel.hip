#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// y[m] = sum over n of A[m, n] * x[n]. One thread per row walks its row in
// order.
__global__ void gemv_kernel(const float* A, const float* x, float* y, long long M, long long N) {
  const long long m = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m < M) {
    const float* a = A + m * N;
    float acc = 0.0f;
    for (long long n = 0; n < N; ++n) acc += a[n] * x[n];
    y[m] = acc;
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0];
  const long long N = inputs[0].shape[1];
  if (M == 0) return 0;
  const unsigned grid = static_cast<unsigned>((M + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(gemv_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), M, N);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
