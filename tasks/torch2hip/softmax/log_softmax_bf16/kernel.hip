// y = log_softmax(x, dim=-1), bf16 in and out, computed in float. A
// straightforward implementation: one block per row (a grid-stride loop over
// rows), three passes over the row in global memory (the maximum, the sum of
// exp(x - max), then y = x - max - log(sum)), each reduction a shared-memory
// tree.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128
#define MAX_GRID 1048576

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// bfloat16 values are handled as their raw 16 bits (the top half of an
// fp32), which NVIDIA and AMD compilers treat the same way.
typedef unsigned short bf16_bits;

__device__ inline float bf16_to_float(bf16_bits h) {
  return __uint_as_float(static_cast<unsigned int>(h) << 16);
}

// Round to nearest even; a NaN stays a (quiet) NaN.
__device__ inline bf16_bits float_to_bf16(float f) {
  unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<bf16_bits>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<bf16_bits>(u >> 16);
}

__global__ void log_softmax_bf16_kernel(const bf16_bits* x, bf16_bits* y, long long rows,
                                        long long cols) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const bf16_bits* xr = x + r * cols;
    bf16_bits* yr = y + r * cols;

    float m = -INFINITY;
    for (long long c = t; c < cols; c += BLOCK) m = fmaxf(m, bf16_to_float(xr[c]));
    red[t] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s) red[t] = fmaxf(red[t], red[t + s]);
      __syncthreads();
    }
    const float row_max = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (long long c = t; c < cols; c += BLOCK) sum += expf(bf16_to_float(xr[c]) - row_max);
    red[t] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s) red[t] += red[t + s];
      __syncthreads();
    }
    const float log_sum = logf(red[0]);
    __syncthreads();  // red is rewritten by the next row

    for (long long c = t; c < cols; c += BLOCK) {
      yr[c] = float_to_bf16(bf16_to_float(xr[c]) - row_max - log_sum);
    }
  }
}

// inputs: x [rows, cols] (bf16); outputs: y [rows, cols] (bf16).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0 || cols == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(log_softmax_bf16_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const bf16_bits*>(inputs[0].data),
                     static_cast<bf16_bits*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
