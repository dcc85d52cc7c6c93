// y[b, m, 0] = min_n x[b, m, n] for an fp32 [B, M, N] tensor
// (torch.amin(x, dim=2, keepdim=True)): a minimum over contiguous rows of
// length N, one per (b, m). A straightforward implementation: one block per
// row (a grid-stride loop over rows); every thread scans a strided slice of
// the row with scalar loads, then a shared-memory tree combines the block.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void min_lastdim_kernel(const float* x, float* y, long long rows, long long cols) {
  __shared__ float sh[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    float m = INFINITY;
    for (long long c = t; c < cols; c += BLOCK) m = fminf(m, xr[c]);
    sh[t] = m;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
      if (t < half) sh[t] = fminf(sh[t], sh[t + half]);
      __syncthreads();
    }
    if (t == 0) y[r] = sh[0];
    __syncthreads();  // sh is rewritten for the next row
  }
}

// inputs: x [B, M, N] (fp32); outputs: y [B, M, 1] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0] * inputs[0].shape[1];
  const long long cols = inputs[0].shape[2];
  if (rows == 0) return 0;
  if (cols == 0) return 1;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(min_lastdim_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
