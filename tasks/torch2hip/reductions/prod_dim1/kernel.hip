// y[r] = prod_c x[r, c] for an fp32 [rows, cols] matrix (torch.prod(x, dim=1)).
// A straightforward implementation: one block per row (a grid-stride loop over
// rows); every thread multiplies a strided slice of the row with scalar
// loads, then a shared-memory tree multiplies the partial products of the
// block.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void prod_dim1_kernel(const float* x, float* y, long long rows, long long cols) {
  __shared__ float scratch[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    float acc = 1.0f;
    for (long long c = t; c < cols; c += BLOCK) acc *= xr[c];
    scratch[t] = acc;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
      if (t < half) scratch[t] *= scratch[t + half];
      __syncthreads();
    }
    if (t == 0) y[r] = scratch[0];
    __syncthreads();  // scratch is rewritten for the next row
  }
}

// inputs: x [rows, cols] (fp32); outputs: y [rows] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(prod_dim1_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
