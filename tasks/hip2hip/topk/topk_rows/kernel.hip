#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

#define MAX_K 32

// One thread per row: a sorted (descending) buffer of the k largest values
// seen so far, kept in thread-local memory; each element larger than the
// current k-th value is inserted by shifting the smaller ones down.
__global__ void topk_rows_kernel(const float* x, float* out, long long rows, long long cols,
                                 int k) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float buf[MAX_K];
  for (int j = 0; j < k; ++j) buf[j] = -INFINITY;
  const float* xr = x + r * cols;
  for (long long c = 0; c < cols; ++c) {
    const float v = xr[c];
    if (v > buf[k - 1]) {
      int j = k - 1;
      while (j > 0 && buf[j - 1] < v) {
        buf[j] = buf[j - 1];
        --j;
      }
      buf[j] = v;
    }
  }
  float* o = out + r * k;
  for (int j = 0; j < k; ++j) o[j] = buf[j];
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const int k = static_cast<int>(outputs[0].shape[1]);
  if (k < 1 || k > MAX_K || k > cols) return 1;
  if (rows == 0) return 0;
  const unsigned grid = static_cast<unsigned>((rows + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(topk_rows_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols, k);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
