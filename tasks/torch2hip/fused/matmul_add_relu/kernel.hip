// y = relu(x @ W + b), fp32, with W stored [K, N] (row-major, not transposed).
// A straightforward implementation: one thread per output element, each
// reading a whole row of x and a whole column of W from global memory (no
// tiling, no shared memory, no register blocking), the bias and ReLU applied
// to the fp32 accumulator before the store.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16

// Thread (x, y) of a block computes y[row, col] with col along x (so that a
// warp reads consecutive elements of a row of W) and row along y. Block tiles
// are visited with grid-stride loops, so any M and N fit in the grid limits.
__global__ void matmul_add_relu_kernel(const float* x, const float* w, const float* b, float* y,
                                       long long M, long long N, long long K) {
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  for (long long rt = blockIdx.x; rt < row_tiles; rt += gridDim.x) {
    for (long long ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const long long row = rt * BLOCK_Y + threadIdx.y;
      const long long col = ct * BLOCK_X + threadIdx.x;
      if (row >= M || col >= N) continue;
      const float* xr = x + row * K;
      float acc = 0.0f;
      for (long long k = 0; k < K; ++k) acc += xr[k] * w[k * N + col];
      acc += b[col];
      y[row * N + col] = acc > 0.0f ? acc : 0.0f;
    }
  }
}

// inputs: x [M, K], weight [K, N], bias [N]; outputs: y [M, N]; all fp32.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0], K = inputs[0].shape[1], N = inputs[1].shape[1];
  if (M == 0 || N == 0) return 0;
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid(static_cast<unsigned>(row_tiles < 2147483647LL ? row_tiles : 2147483647LL),
            static_cast<unsigned>(col_tiles < 65535LL ? col_tiles : 65535LL));
  hipLaunchKernelGGL(matmul_add_relu_kernel, grid, block, 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
