// loss = mean_i h(prediction[i] - target[i]), fp32, with the Huber term
//   h(d) = 0.5 d^2                    if |d| <= delta,
//          delta (|d| - 0.5 delta)    otherwise,
// as nn.HuberLoss(delta=delta) with its default mean reduction. A
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

__device__ float g_huber_partials[PARTIALS];

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

__global__ void huber_partials_kernel(const float* pred, const float* target, long long n,
                                      float delta) {
  __shared__ float scratch[BLOCK];
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float a = fabsf(pred[i] - target[i]);
    acc += a <= delta ? 0.5f * a * a : delta * (a - 0.5f * delta);
  }
  const float total = block_reduce_sum(acc, scratch);
  if (threadIdx.x == 0) g_huber_partials[blockIdx.x] = total;
}

// One block: out[0] = (sum of the first num_partials partials) / count.
__global__ void huber_finish_kernel(float* out, int num_partials, long long count) {
  __shared__ float scratch[BLOCK];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < num_partials; i += BLOCK) acc += g_huber_partials[i];
  const float total = block_reduce_sum(acc, scratch);
  if (threadIdx.x == 0) {
    out[0] = static_cast<float>(static_cast<double>(total) / static_cast<double>(count));
  }
}

// inputs: prediction [rows, cols], target [rows, cols] (fp32); outputs:
// loss [1] (fp32); parameter delta.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const float delta = static_cast<float>(arena_param(params, num_params, "delta", 1.0));
  // No elements gives 0 / 0 = NaN, as PyTorch does.
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > PARTIALS) blocks = PARTIALS;
  if (blocks > 0) {
    hipLaunchKernelGGL(huber_partials_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                       stream, static_cast<const float*>(inputs[0].data),
                       static_cast<const float*>(inputs[1].data), n, delta);
  }
  hipLaunchKernelGGL(huber_finish_kernel, dim3(1), dim3(BLOCK), 0, stream,
                     static_cast<float*>(outputs[0].data), static_cast<int>(blocks), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
