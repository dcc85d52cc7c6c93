// LayerNorm over the rows of a bf16 matrix with bf16 weight and bias,
// computed in fp32 and rounded once to bf16:
//   y[r, d] = (x[r, d] - mean_r) / sqrt(var_r + eps) * w[d] + b[d]
// with the biased variance (divide by D). A straightforward implementation:
// one block per row (a grid-stride loop over rows), three passes over the row
// in global memory (the mean, the centred variance, the output), each sum by a
// shared-memory tree reduction, scalar 16-bit loads and stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// bf16 values are handled as their raw 16 bits (the upper half of an fp32),
// which works the same with the NVIDIA and AMD compilers.
typedef unsigned short bf16_t;

__device__ inline float bf16_load(bf16_t h) {
  return __uint_as_float(static_cast<unsigned int>(h) << 16);
}

// fp32 -> bf16, round to nearest even; a NaN stays a (quiet) NaN.
__device__ inline bf16_t bf16_store(float f) {
  const unsigned int bits = __float_as_uint(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<bf16_t>((bits >> 16) | 0x0040u);
  const unsigned int lsb = (bits >> 16) & 1u;
  return static_cast<bf16_t>((bits + 0x7fffu + lsb) >> 16);
}

// The sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_reduce_sum(float v, float* scratch) {
  const int t = threadIdx.x;
  scratch[t] = v;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();  // scratch is rewritten by the next call
  return total;
}

__global__ void layernorm_bf16_kernel(const bf16_t* x, const bf16_t* w, const bf16_t* b,
                                      bf16_t* y, long long rows, long long D, float eps) {
  __shared__ float scratch[BLOCK];
  const int t = threadIdx.x;
  const float inv_d = 1.0f / static_cast<float>(D);
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const bf16_t* xr = x + r * D;
    bf16_t* yr = y + r * D;

    float s = 0.0f;
    for (long long d = t; d < D; d += BLOCK) s += bf16_load(xr[d]);
    const float mean = block_reduce_sum(s, scratch) * inv_d;

    float sq = 0.0f;
    for (long long d = t; d < D; d += BLOCK) {
      const float c = bf16_load(xr[d]) - mean;
      sq += c * c;
    }
    const float var = block_reduce_sum(sq, scratch) * inv_d;
    const float rstd = 1.0f / sqrtf(var + eps);

    for (long long d = t; d < D; d += BLOCK) {
      const float n = (bf16_load(xr[d]) - mean) * rstd;
      yr[d] = bf16_store(n * bf16_load(w[d]) + bf16_load(b[d]));
    }
  }
}

// inputs: x [rows, D], weight [D], bias [D] (all bf16); outputs: y [rows, D]
// (bf16); parameter eps.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long D = inputs[0].shape[1];
  const float eps = static_cast<float>(arena_param(params, num_params, "eps", 1e-5));
  if (rows == 0 || D == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(layernorm_bf16_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const bf16_t*>(inputs[0].data),
                     static_cast<const bf16_t*>(inputs[1].data),
                     static_cast<const bf16_t*>(inputs[2].data),
                     static_cast<bf16_t*>(outputs[0].data), rows, D, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
