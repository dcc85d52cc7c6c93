// loss = mean_i (prediction[i] - target[i])^2, fp32: nn.MSELoss() with its
// default mean reduction. A straightforward, deterministic implementation in
// two kernels:
//  1. a fixed number of blocks (at most PARTIALS), one thread per element in
//     a grid-stride loop summing its squared differences, then a
//     shared-memory tree per block; the block's sum goes to a partial;
//  2. one block adding the partials in a fixed order and dividing by the
//     element count.
// The partials live in a buffer of this module, so two calls must not run
// concurrently (calls on one stream are ordered).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256
#define PARTIALS 1024

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

__device__ float g_partials[PARTIALS];

__global__ void mse_partials_kernel(const float* pred, const float* target, long long n) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  float sum = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + t; i < n; i += stride) {
    const float d = pred[i] - target[i];
    sum += d * d;
  }
  red[t] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  if (t == 0) g_partials[blockIdx.x] = red[0];
}

// One block: out[0] = (sum of the first num_partials partials) / count.
__global__ void mean_of_partials_kernel(float* out, int num_partials, long long count) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  float s = 0.0f;
  for (int i = t; i < num_partials; i += BLOCK) s += g_partials[i];
  red[t] = s;
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) red[t] += red[t + k];
    __syncthreads();
  }
  if (t == 0) out[0] = static_cast<float>(static_cast<double>(red[0]) / static_cast<double>(count));
}

// inputs: prediction [rows, cols], target [rows, cols] (fp32); outputs:
// loss [1] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  // No elements gives 0 / 0 = NaN, as PyTorch does.
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > PARTIALS) blocks = PARTIALS;
  if (blocks > 0) {
    hipLaunchKernelGGL(mse_partials_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                       stream, static_cast<const float*>(inputs[0].data),
                       static_cast<const float*>(inputs[1].data), n);
  }
  hipLaunchKernelGGL(mean_of_partials_kernel, dim3(1), dim3(BLOCK), 0, stream,
                     static_cast<float*>(outputs[0].data), static_cast<int>(blocks), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
