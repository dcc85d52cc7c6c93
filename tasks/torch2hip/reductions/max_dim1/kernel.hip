// values[r] = max_c x[r, c] and indices[r] = the first c where it occurs, for
// an fp32 [rows, cols] matrix (torch.max(x, dim=1)); indices are int64. A
// straightforward implementation: one block per row (a grid-stride loop over
// rows); every thread scans a strided slice of the row with scalar loads,
// keeping its best (value, column) pair, then a shared-memory tree combines
// the pairs of the block.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// Whether (v, c) beats (best_v, best_c): a larger value, or an equal value at
// a smaller column.
__device__ inline bool beats(float v, long long c, float best_v, long long best_c) {
  return v > best_v || (v == best_v && c < best_c);
}

__global__ void max_dim1_kernel(const float* x, float* values, long long* indices,
                                long long rows, long long cols) {
  __shared__ float sh_v[BLOCK];
  __shared__ long long sh_c[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * cols;
    // A thread with no column keeps (-inf, cols): it loses to every real one.
    float best_v = -INFINITY;
    long long best_c = cols;
    for (long long c = t; c < cols; c += BLOCK) {
      const float v = xr[c];
      if (beats(v, c, best_v, best_c)) {
        best_v = v;
        best_c = c;
      }
    }
    sh_v[t] = best_v;
    sh_c[t] = best_c;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
      if (t < half && beats(sh_v[t + half], sh_c[t + half], sh_v[t], sh_c[t])) {
        sh_v[t] = sh_v[t + half];
        sh_c[t] = sh_c[t + half];
      }
      __syncthreads();
    }
    if (t == 0) {
      // A row whose values are all -inf keeps (-inf, cols): its answer is column 0.
      const long long c = sh_c[0] < cols ? sh_c[0] : 0;
      values[r] = xr[c];
      indices[r] = c;
    }
    __syncthreads();  // sh_v / sh_c are rewritten for the next row
  }
}

// inputs: x [rows, cols] (fp32); outputs: values [rows] (fp32), indices [rows]
// (int64).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(max_dim1_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data),
                     static_cast<long long*>(outputs[1].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
