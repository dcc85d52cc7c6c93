// y = relu(x @ W^T + b), fp32. A straightforward implementation: one thread
// per output element, each reading a whole row of x and of W from global
// memory (no tiling, no shared memory, no vector loads).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16

__global__ void linear_bias_relu_kernel(const float* x, const float* w, const float* b, float* y,
                                        long long M, long long N, long long K) {
  const long long col = static_cast<long long>(blockIdx.x) * BLOCK_X + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.y) * BLOCK_Y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = b[col];
  for (long long k = 0; k < K; ++k) acc += x[row * K + k] * w[col * K + k];
  y[row * N + col] = acc > 0.0f ? acc : 0.0f;
}

// inputs: x [M, K], weight [N, K], bias [N]; outputs: y [M, N].
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0], K = inputs[0].shape[1], N = inputs[1].shape[0];
  if (M == 0 || N == 0) return 0;
  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid(static_cast<unsigned>((N + BLOCK_X - 1) / BLOCK_X),
            static_cast<unsigned>((M + BLOCK_Y - 1) / BLOCK_Y));
  hipLaunchKernelGGL(linear_bias_relu_kernel, grid, block, 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
