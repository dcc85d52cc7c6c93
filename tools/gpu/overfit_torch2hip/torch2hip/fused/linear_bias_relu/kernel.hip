// Deliberately overfitted candidate: a shared-memory tiled GEMM that assumes
// M, N and K are multiples of 16, as every tuning configuration happens to
// be. It is correct and faster there; on held-out shapes the remainder rows,
// columns and K terms are silently dropped.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define TILE 16

__global__ void linear_bias_relu_tiled(const float* x, const float* w, const float* b, float* y,
                                       long long N, long long K) {
  __shared__ float xs[TILE][TILE];
  __shared__ float ws[TILE][TILE + 1];
  const long long row = static_cast<long long>(blockIdx.y) * TILE + threadIdx.y;
  const long long col = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
  const long long wrow = static_cast<long long>(blockIdx.x) * TILE + threadIdx.y;
  float acc = 0.0f;
  for (long long k0 = 0; k0 < K / TILE * TILE; k0 += TILE) {  // no remainder
    xs[threadIdx.y][threadIdx.x] = x[row * K + k0 + threadIdx.x];
    ws[threadIdx.y][threadIdx.x] = w[wrow * K + k0 + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
    __syncthreads();
  }
  acc += b[col];
  y[row * N + col] = acc > 0.0f ? acc : 0.0f;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0], K = inputs[0].shape[1], N = inputs[1].shape[0];
  dim3 grid(static_cast<unsigned>(N / TILE), static_cast<unsigned>(M / TILE));  // no remainder
  if (grid.x == 0 || grid.y == 0) return 0;
  hipLaunchKernelGGL(linear_bias_relu_tiled, grid, dim3(TILE, TILE), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
