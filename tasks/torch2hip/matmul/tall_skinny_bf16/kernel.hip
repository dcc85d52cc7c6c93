// C = A @ B, bf16 inputs and output, fp32 accumulation, for a tall A [M, K]
// and a skinny B [K, N] (N small). A straightforward implementation: one
// thread per output element, each reading a whole row of A and a whole
// column of B from global memory (no tiling, no shared memory, no vector
// loads).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK_X 16
#define BLOCK_Y 16

// bfloat16 is handled as its raw 16 bits (the top half of an fp32), which
// every HIP compiler accepts the same way.
typedef unsigned short bf16_bits;

__device__ inline float bf16_to_float(bf16_bits h) {
  return __uint_as_float(static_cast<unsigned int>(h) << 16);
}

// Round to nearest even; NaN stays a (quiet) NaN.
__device__ inline bf16_bits float_to_bf16(float f) {
  unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<bf16_bits>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<bf16_bits>(u >> 16);
}

// Thread (x, y) of a block computes C[row, col] with col along x (a warp
// reads consecutive elements of a row of B) and row along y. Row tiles are
// along the grid's x (there can be many), column tiles along its y;
// grid-stride loops let any sizes fit the grid limits.
__global__ void matmul_kernel(const bf16_bits* a, const bf16_bits* b, bf16_bits* c, long long M,
                              long long N, long long K) {
  const long long row_tiles = (M + BLOCK_Y - 1) / BLOCK_Y;
  const long long col_tiles = (N + BLOCK_X - 1) / BLOCK_X;
  for (long long rt = blockIdx.x; rt < row_tiles; rt += gridDim.x) {
    for (long long ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const long long row = rt * BLOCK_Y + threadIdx.y;
      const long long col = ct * BLOCK_X + threadIdx.x;
      if (row >= M || col >= N) continue;
      const bf16_bits* ar = a + row * K;
      float acc = 0.0f;
      for (long long k = 0; k < K; ++k) acc += bf16_to_float(ar[k]) * bf16_to_float(b[k * N + col]);
      c[row * N + col] = float_to_bf16(acc);
    }
  }
}

static unsigned clamp_grid(long long n, long long limit) {
  return static_cast<unsigned>(n < limit ? n : limit);
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
  dim3 grid(clamp_grid(row_tiles, 2147483647LL), clamp_grid(col_tiles, 65535LL));
  hipLaunchKernelGGL(matmul_kernel, grid, block, 0, stream,
                     static_cast<const bf16_bits*>(inputs[0].data),
                     static_cast<const bf16_bits*>(inputs[1].data),
                     static_cast<bf16_bits*>(outputs[0].data), M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
