// loss = (1 / batch) * sum_{r, c} t * (log t - x) with x = log_probs[r, c],
// t = target[r, c] (a term with t == 0 is 0): nn.KLDivLoss with
// reduction='batchmean' on fp32. A straightforward, deterministic
// implementation in two kernels:
//  1. a fixed number of blocks (at most PARTIALS), one thread per element in
//     a grid-stride loop summing its terms, then a shared-memory tree per
//     block; the block's sum goes to a partial;
//  2. one block adding the partials in a fixed order and dividing by batch.
// The partials live in a buffer of this module, so two calls must not run
// concurrently (calls on one stream are ordered).
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256
#define PARTIALS 1024

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

__device__ float g_partials[PARTIALS];

__global__ void kl_div_partials_kernel(const float* log_probs, const float* target,
                                       long long n) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  float sum = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + t; i < n; i += stride) {
    const float p = target[i];
    // xlogy(p, p) - p * x, which is 0 where p == 0.
    if (p > 0.0f) sum += p * (logf(p) - log_probs[i]);
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

// inputs: log_probs [batch, classes], target [batch, classes] (fp32);
// outputs: loss [1] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long batch = inputs[0].shape[0];
  const long long n = inputs[0].numel;
  // An empty batch gives 0 / 0 = NaN.
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > PARTIALS) blocks = PARTIALS;
  if (blocks > 0) {
    hipLaunchKernelGGL(kl_div_partials_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                       stream, static_cast<const float*>(inputs[0].data),
                       static_cast<const float*>(inputs[1].data), n);
  }
  hipLaunchKernelGGL(mean_of_partials_kernel, dim3(1), dim3(BLOCK), 0, stream,
                     static_cast<float*>(outputs[0].data), static_cast<int>(blocks), batch);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
