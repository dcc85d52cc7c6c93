// y[r, c] = sum over j <= c of x[r, j] (torch.cumsum(x, dim=1)), fp32. A
// straightforward implementation: one block per row, walking the row in
// chunks of BLOCK elements; each chunk is scanned in shared memory by a
// Hillis-Steele inclusive scan (log2(BLOCK) steps, two __syncthreads each)
// and offset by the running total of the chunks before it.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void cumsum_rows_kernel(const float* x, float* y, long long rows, long long cols) {
  __shared__ float s[BLOCK];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    float carry = 0.0f;  // the sum of the row's chunks so far (the same in every thread)
    for (long long c0 = 0; c0 < cols; c0 += BLOCK) {
      const long long c = c0 + t;
      s[t] = c < cols ? xr[c] : 0.0f;
      __syncthreads();
      for (int offset = 1; offset < BLOCK; offset <<= 1) {
        const float v = t >= offset ? s[t - offset] : 0.0f;
        __syncthreads();
        s[t] += v;
        __syncthreads();
      }
      if (c < cols) yr[c] = carry + s[t];
      carry += s[BLOCK - 1];
      __syncthreads();  // s is overwritten by the next chunk
    }
  }
}

// inputs: x [rows, cols]; outputs: y [rows, cols].
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(cumsum_rows_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
