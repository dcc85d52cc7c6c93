// RMSNorm over the rows of a bf16 matrix with a bf16 weight, computed in
// fp32: y[r, d] = x[r, d] / sqrt(mean_d(x[r, :]^2) + eps) * w[d], rounded
// once to bf16. A straightforward implementation: one block per row (a
// grid-stride loop over rows), two passes over the row in global memory (the
// sum of squares by a shared-memory tree reduction, then the output), scalar
// 16-bit loads and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// A bf16 value as its raw 16 bits: the upper half of an fp32. Handling the
// bits directly works the same with the NVIDIA and AMD compilers.
typedef unsigned short bf16_bits;

__device__ inline float bf16_to_float(bf16_bits h) {
  return __uint_as_float(static_cast<unsigned int>(h) << 16);
}

// Round to nearest, ties to even; NaN is kept a quiet NaN.
__device__ inline bf16_bits float_to_bf16(float f) {
  const unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<bf16_bits>((u >> 16) | 0x0040u);
  const unsigned int rounded = u + 0x7fffu + ((u >> 16) & 1u);
  return static_cast<bf16_bits>(rounded >> 16);
}

// Sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_sum(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next row
  return total;
}

__global__ void rmsnorm_bf16_kernel(const bf16_bits* x, const bf16_bits* w, bf16_bits* y,
                                    long long rows, long long D, float eps) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    const bf16_bits* xr = x + row * D;
    bf16_bits* yr = y + row * D;

    float ss = 0.0f;
    for (long long d = t; d < D; d += BLOCK) {
      const float v = bf16_to_float(xr[d]);
      ss += v * v;
    }
    const float mean_sq = block_sum(ss, red) / static_cast<float>(D);
    const float rstd = 1.0f / sqrtf(mean_sq + eps);

    for (long long d = t; d < D; d += BLOCK) {
      yr[d] = float_to_bf16(bf16_to_float(xr[d]) * rstd * bf16_to_float(w[d]));
    }
  }
}

// inputs: x [rows, D] (bf16), weight [D] (bf16); outputs: y [rows, D] (bf16);
// parameter eps.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long D = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-6));
  if (rows == 0 || D == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(rmsnorm_bf16_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const bf16_bits*>(inputs[0].data),
                     static_cast<const bf16_bits*>(inputs[1].data),
                     static_cast<bf16_bits*>(outputs[0].data), rows, D, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
