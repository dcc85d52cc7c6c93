// C = A @ B, fp32. A straightforward implementation: one thread per output
// element, each reading a whole row of A and a whole column of B from global
// memory (no tiling, no shared memory, no register blocking).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16

// Thread (x, y) of a block computes C[row, col] with col along x (so that a
// warp reads consecutive elements of a row of B) and row along y. Block tiles
// are visited with grid-stride loops, so any M and N fit in the grid limits.
__global__ void matmul_kernel(const float* a, const float* b, float* c, long long M, long long N,
                              long long K) {
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  for (long long rt = blockIdx.x; rt < row_tiles; rt += gridDim.x) {
    for (long long ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const long long row = rt * BLOCK_Y + threadIdx.y;
      const long long col = ct * BLOCK_X + threadIdx.x;
      if (row >= M || col >= N) continue;
      const float* ar = a + row * K;
      float acc = 0.0f;
      for (long long k = 0; k < K; ++k) acc += ar[k] * b[k * N + col];
      c[row * N + col] = acc;
    }
  }
}

// inputs: a [M, K], b [K, N]; outputs: c [M, N].
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
  hipLaunchKernelGGL(matmul_kernel, grid, block, 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
