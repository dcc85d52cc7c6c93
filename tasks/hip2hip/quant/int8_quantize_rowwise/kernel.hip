#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// Pass 1, one block per row: max |x| by a shared-memory tree, then
// scale[r] = max / 127 (1 for an all-zero row).
__global__ void row_scale_kernel(const float* x, float* scale, long long cols) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const float* xr = x + static_cast<long long>(blockIdx.x) * cols;
  float m = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) m = fmaxf(m, fabsf(xr[c]));
  red[t] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  if (t == 0) scale[blockIdx.x] = red[0] > 0.0f ? red[0] / 127.0f : 1.0f;
}

// Pass 2, one thread per element: q = round-half-away(x / scale), clamped.
__global__ void quantize_kernel(const float* x, const float* scale, signed char* q, long long n,
                                long long cols) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = roundf(x[i] / scale[i / cols]);
  q[i] = static_cast<signed char>(fminf(fmaxf(v, -127.0f), 127.0f));
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const long long n = inputs[0].numel;
  const float* x = static_cast<const float*>(inputs[0].data);
  signed char* q = static_cast<signed char*>(outputs[0].data);
  float* scale = static_cast<float*>(outputs[1].data);
  if (rows == 0) return 0;
  hipLaunchKernelGGL(row_scale_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0, stream,
                     x, scale, cols);
  if (n > 0) {
    const unsigned grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
    hipLaunchKernelGGL(quantize_kernel, dim3(grid), dim3(BLOCK), 0, stream, x,
                       static_cast<const float*>(scale), q, n, cols);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
