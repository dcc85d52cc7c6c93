// loss = mean_i l(x[i], t[i]) for fp32 logits x and {0, 1} targets t, with the
// numerically stable form of binary cross entropy on logits
//   l(x, t) = max(x, 0) - x t + log(1 + exp(-|x|)),
// as nn.BCEWithLogitsLoss() with its default mean reduction. A
// straightforward, deterministic implementation in two kernels:
//  1. at most PARTIALS blocks, each thread summing the terms of a grid-stride
//     slice of the elements, then a shared-memory tree per block whose total
//     goes to the block's partial;
//  2. one block adding the partials in a fixed order and dividing by the
//     element count.
// The partials live in a buffer of this module, so two calls must not run
// concurrently (calls on one stream are ordered).
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256
#define PARTIALS 1024

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

__device__ float g_bce_partials[PARTIALS];

// The sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_reduce_sum(float v, float* scratch) {
  const int t = threadIdx.x;
  scratch[t] = v;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  return scratch[0];
}

__global__ void bce_partials_kernel(const float* logits, const float* target, long long n) {
  __shared__ float scratch[BLOCK];
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float x = logits[i];
    const float t = target[i];
    acc += fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
  }
  const float total = block_reduce_sum(acc, scratch);
  if (threadIdx.x == 0) g_bce_partials[blockIdx.x] = total;
}

// One block: out[0] = (sum of the first num_partials partials) / count.
__global__ void bce_finish_kernel(float* out, int num_partials, long long count) {
  __shared__ float scratch[BLOCK];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < num_partials; i += BLOCK) acc += g_bce_partials[i];
  const float total = block_reduce_sum(acc, scratch);
  if (threadIdx.x == 0) {
    out[0] = static_cast<float>(static_cast<double>(total) / static_cast<double>(count));
  }
}

// inputs: logits [rows, cols], target [rows, cols] (fp32); outputs: loss [1]
// (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  // No elements gives 0 / 0 = NaN, as PyTorch does.
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > PARTIALS) blocks = PARTIALS;
  if (blocks > 0) {
    hipLaunchKernelGGL(bce_partials_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                       stream, static_cast<const float*>(inputs[0].data),
                       static_cast<const float*>(inputs[1].data), n);
  }
  hipLaunchKernelGGL(bce_finish_kernel, dim3(1), dim3(BLOCK), 0, stream,
                     static_cast<float*>(outputs[0].data), static_cast<int>(blocks), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
