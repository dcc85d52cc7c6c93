// C[b] = A[b] @ B[b] over a batch, fp32. A straightforward implementation: one
// thread per output element, each reading a whole row of A[b] and a whole
// column of B[b] from global memory (no tiling, no shared memory, no register
// blocking).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16

// Thread (x, y) of a block computes C[b, row, col] with col along x (a warp
// reads consecutive elements of a row of B[b]) and row along y; the batch is
// along the grid's z. Grid-stride loops let any sizes fit the grid limits.
__global__ void bmm_kernel(const float* a, const float* b, float* c, long long batch,
                           long long M, long long N, long long K) {
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  for (long long bi = blockIdx.z; bi < batch; bi += gridDim.z) {
    const float* ab = a + bi * M * K;
    const float* bb = b + bi * K * N;
    float* cb = c + bi * M * N;
    for (long long rt = blockIdx.x; rt < row_tiles; rt += gridDim.x) {
      for (long long ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
        const long long row = rt * BLOCK_Y + threadIdx.y;
        const long long col = ct * BLOCK_X + threadIdx.x;
        if (row >= M || col >= N) continue;
        const float* ar = ab + row * K;
        float acc = 0.0f;
        for (long long k = 0; k < K; ++k) acc += ar[k] * bb[k * N + col];
        cb[row * N + col] = acc;
      }
    }
  }
}

static unsigned clamp_grid(long long n, long long limit) {
  return static_cast<unsigned>(n < limit ? n : limit);
}

// inputs: a [batch, M, K], b [batch, K, N]; outputs: c [batch, M, N]; all fp32.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long batch = inputs[0].shape[0];
  const long long M = inputs[0].shape[1], K = inputs[0].shape[2], N = inputs[1].shape[2];
  if (batch == 0 || M == 0 || N == 0) return 0;
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid(clamp_grid(row_tiles, 2147483647LL), clamp_grid(col_tiles, 65535LL),
            clamp_grid(batch, 65535LL));
  hipLaunchKernelGGL(bmm_kernel, grid, block, 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), batch, M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
