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

// One block per row, two passes over the row. Pass 1: r = x + residual in
// fp32, stored to residual_out (bf16), and the sum of squares of r reduced by
// a shared-memory tree. Pass 2: x and residual are read again, r recomputed
// and y = r * rrms * w written.
__global__ void fused_add_rmsnorm_kernel(const bf16_bits* x, const bf16_bits* residual,
                                         const bf16_bits* w, bf16_bits* residual_out,
                                         bf16_bits* y, long long cols, float eps) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long row_off = static_cast<long long>(blockIdx.x) * cols;
  const bf16_bits* xr = x + row_off;
  const bf16_bits* rr = residual + row_off;
  bf16_bits* ror = residual_out + row_off;
  bf16_bits* yr = y + row_off;

  float ss = 0.0f;
  for (long long c = t; c < cols; c += BLOCK) {
    const float v = bf16_to_float(xr[c]) + bf16_to_float(rr[c]);
    ror[c] = float_to_bf16(v);
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
    const float v = bf16_to_float(xr[c]) + bf16_to_float(rr[c]);
    yr[c] = float_to_bf16(v * rrms * bf16_to_float(w[c]));
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-6));
  if (rows == 0 || cols == 0) return 0;
  hipLaunchKernelGGL(fused_add_rmsnorm_kernel, dim3(static_cast<unsigned>(rows)), dim3(BLOCK), 0,
                     stream, static_cast<const bf16_bits*>(inputs[0].data),
                     static_cast<const bf16_bits*>(inputs[1].data),
                     static_cast<const bf16_bits*>(inputs[2].data),
                     static_cast<bf16_bits*>(outputs[0].data),
                     static_cast<bf16_bits*>(outputs[1].data), cols, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
