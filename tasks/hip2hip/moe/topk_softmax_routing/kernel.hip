#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

#define MAX_K 32

// One thread per token. Pass 1: the row maximum; pass 2: the softmax
// denominator sum_e exp(x_e - max); pass 3: the k largest logits, kept sorted
// (descending, equal logits in increasing expert order) in thread-local
// arrays by insertion. Then each selected expert's probability
// exp(x - max) / denominator, renormalized over the k selected ones.
__global__ void topk_softmax_routing_kernel(const float* logits, float* weights, int* ids,
                                            long long tokens, int experts, int k) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= tokens) return;
  const float* x = logits + r * experts;

  float m = -INFINITY;
  for (int e = 0; e < experts; ++e) m = fmaxf(m, x[e]);
  float denom = 0.0f;
  for (int e = 0; e < experts; ++e) denom += expf(x[e] - m);

  float bv[MAX_K];
  int bi[MAX_K];
  int filled = 0;
  for (int e = 0; e < experts; ++e) {
    const float v = x[e];
    int j;
    if (filled < k) {
      j = filled++;
    } else if (v > bv[k - 1]) {  // strictly larger: an equal logit keeps the lower index
      j = k - 1;
    } else {
      continue;
    }
    while (j > 0 && bv[j - 1] < v) {
      bv[j] = bv[j - 1];
      bi[j] = bi[j - 1];
      --j;
    }
    bv[j] = v;
    bi[j] = e;
  }

  float p[MAX_K];
  float psum = 0.0f;
  for (int j = 0; j < k; ++j) {
    p[j] = expf(bv[j] - m) / denom;
    psum += p[j];
  }
  float* w = weights + r * k;
  int* id = ids + r * k;
  for (int j = 0; j < k; ++j) {
    w[j] = p[j] / psum;
    id[j] = bi[j];
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long tokens = inputs[0].shape[0];
  const int experts = static_cast<int>(inputs[0].shape[1]);
  const int k = static_cast<int>(outputs[0].shape[1]);
  if (k < 1 || k > MAX_K || k > experts) return 1;
  if (tokens == 0) return 0;
  const unsigned grid = static_cast<unsigned>((tokens + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(topk_softmax_routing_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), static_cast<int*>(outputs[1].data),
                     tokens, experts, k);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
