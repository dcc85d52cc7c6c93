// loss = mean_r (logsumexp(logits[r, :]) - logits[r, target[r]]), fp32
// logits, int64 targets: nn.CrossEntropyLoss() with its default mean
// reduction. A straightforward, deterministic implementation in two
// kernels:
//  1. a fixed number of blocks (at most PARTIALS), each taking rows
//     blockIdx.x, blockIdx.x + gridDim.x, ...; for each row two passes over
//     global memory (the maximum, then the sum of exp(x - max)), each a
//     shared-memory tree; the block's sum of row losses goes to a partial;
//  2. one block adding the partials in a fixed order and dividing by batch.
// The partials live in a buffer of this module, so two calls must not run
// concurrently (calls on one stream are ordered).
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128
#define PARTIALS 1024

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

__device__ float g_partials[PARTIALS];

__global__ void cross_entropy_rows_kernel(const float* logits, const long long* target,
                                          long long batch, long long classes) {
  __shared__ float red[BLOCK];
  const int t = threadIdx.x;
  float block_sum = 0.0f;  // used by thread 0 only
  for (long long r = blockIdx.x; r < batch; r += gridDim.x) {
    const float* xr = logits + r * classes;

    float m = -INFINITY;
    for (long long c = t; c < classes; c += BLOCK) m = fmaxf(m, xr[c]);
    red[t] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s) red[t] = fmaxf(red[t], red[t + s]);
      __syncthreads();
    }
    const float row_max = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (long long c = t; c < classes; c += BLOCK) sum += expf(xr[c] - row_max);
    red[t] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s) red[t] += red[t + s];
      __syncthreads();
    }
    if (t == 0) block_sum += row_max + logf(red[0]) - xr[target[r]];
    __syncthreads();  // red is rewritten by the next row
  }
  if (t == 0) g_partials[blockIdx.x] = block_sum;
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

// inputs: logits [batch, classes] (fp32), target [batch] (int64, each in
// [0, classes)); outputs: loss [1] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long batch = inputs[0].shape[0];
  const long long classes = inputs[0].shape[1];
  // An empty batch gives 0 / 0 = NaN, as PyTorch does.
  const int blocks = static_cast<int>(batch < PARTIALS ? batch : PARTIALS);
  if (blocks > 0) {
    hipLaunchKernelGGL(cross_entropy_rows_kernel, dim3(blocks), dim3(BLOCK), 0, stream,
                       static_cast<const float*>(inputs[0].data),
                       static_cast<const long long*>(inputs[1].data), batch, classes);
  }
  hipLaunchKernelGGL(mean_of_partials_kernel, dim3(1), dim3(BLOCK), 0, stream,
                     static_cast<float*>(outputs[0].data), blocks, batch);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
