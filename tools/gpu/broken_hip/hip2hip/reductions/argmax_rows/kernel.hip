// Deliberately broken candidate: the last row's index is never written (the
// int32 output keeps the harness's poison there).
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// (value, index) pairs: the larger value wins, the smaller index on ties.
__device__ inline bool better(float v, long long i, float bv, long long bi) {
  return v > bv || (v == bv && i < bi);
}

// One block per row: every thread scans a strided slice of the row keeping
// its best pair, then a shared-memory tree (a __syncthreads per level).
__global__ void argmax_rows_kernel(const float* x, int* out, long long cols) {
  __shared__ float best_v[BLOCK];
  __shared__ long long best_i[BLOCK];
  const int t = threadIdx.x;
  const float* xr = x + static_cast<long long>(blockIdx.x) * cols;
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
  if (t == 0 && blockIdx.x + 1 < gridDim.x) out[blockIdx.x] = static_cast<int>(best_i[0] < cols ? best_i[0] : 0);
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0) return 0;
  hipLaunchKernelGGL(argmax_rows_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<int*>(outputs[0].data), cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
