// index[r] = argmax_c x[r, c] (the first such c on ties), fp32 in, int64
// out. A straightforward implementation: one block per row (a grid-stride
// loop over rows); every thread scans a strided slice of the row keeping its
// best (value, index) pair, then a shared-memory tree combines the pairs.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128
#define MAX_GRID 1048576

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The larger value wins; on equal values the smaller index.
__device__ inline bool better(float v, long long i, float bv, long long bi) {
  return v > bv || (v == bv && i < bi);
}

__global__ void argmax_kernel(const float* x, long long* out, long long rows, long long cols) {
  __shared__ float best_v[BLOCK];
  __shared__ long long best_i[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    float bv = -INFINITY;
    long long bi = cols;  // "none yet": loses every tie against a real index
    for (long long c = t; c < cols; c += BLOCK) {
      const float v = xr[c];
      if (better(v, c, bv, bi)) {
        bv = v;
        bi = c;
      }
    }
    best_v[t] = bv;
    best_i[t] = bi;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s && better(best_v[t + s], best_i[t + s], best_v[t], best_i[t])) {
        best_v[t] = best_v[t + s];
        best_i[t] = best_i[t + s];
      }
      __syncthreads();
    }
    // A row of -inf only keeps "none yet": its first element is the answer.
    if (t == 0) out[r] = best_i[0] < cols ? best_i[0] : 0;
    __syncthreads();  // best_v/best_i are rewritten by the next row
  }
}

// inputs: x [rows, cols]; outputs: index [rows] (int64).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(argmax_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<long long*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
