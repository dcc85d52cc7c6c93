// Deliberately broken candidate: a segmentation fault in arena_run.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

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

// One block per row: the mean of squares by a shared-memory tree, then the
// scaled outputs; two passes over the row.
__global__ void rmsnorm_kernel(const bf16_bits* x, const bf16_bits* w, bf16_bits* y,
                               long long cols, float eps) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const bf16_bits* xr = x + static_cast<long long>(blockIdx.x) * cols;
  bf16_bits* yr = y + static_cast<long long>(blockIdx.x) * cols;

  float ss = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) {
    const float v = bf16_to_float(xr[c]);
    ss += v * v;
  }
  red[t] = ss;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float rrms = 1.0f / sqrtf(red[0] / static_cast<float>(cols) + eps);

  for (long long c = t; c < cols; c += BLOCK) {
    yr[c] = float_to_bf16(bf16_to_float(xr[c]) * rrms * bf16_to_float(w[c]));
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-6));
  if (rows == 0 || cols == 0) return 0;
  volatile int* host_null = nullptr;
  *host_null = static_cast<int>(rows);  // a segfault on the host
  hipLaunchKernelGGL(rmsnorm_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0, stream,
                     static_cast<const bf16_bits*>(inputs[0].data),
                     static_cast<const bf16_bits*>(inputs[1].data),
                     static_cast<bf16_bits*>(outputs[0].data), cols, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
