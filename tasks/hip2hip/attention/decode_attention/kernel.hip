#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

#define MAX_HEAD_DIM 256

// One block per (batch, head). The valid keys are visited in chunks of BLOCK:
// thread t computes the score of key j0 + t (a head_dim-long dot product read
// straight from global memory) into shared memory; every thread then scans
// the chunk's scores for the new running maximum, the scores become
// exp(s - max), and thread t updates the output dimensions d = t, t + BLOCK,
// ... (accumulators in shared memory) with the chunk's weighted values,
// rescaling what it had by exp(old max - new max). The running maximum and
// denominator are computed redundantly (and identically) by every thread.
__global__ void decode_attention_kernel(const float* q, const float* k, const float* v,
                                        const int* lens, float* o, long long heads,
                                        long long seq, int head_dim, float scale) {
  __shared__ float s[BLOCK];
  __shared__ float acc[MAX_HEAD_DIM];
  const int t = threadIdx.x;
  const long long bh = blockIdx.x;  // b * heads + h
  const long long b = bh / heads;
  long long len = lens[b];
  if (len > seq) len = seq;
  const float* qr = q + bh * head_dim;
  const float* kb = k + bh * seq * head_dim;
  const float* vb = v + bh * seq * head_dim;

  for (int d = t; d < head_dim; d += BLOCK) acc[d] = 0.0f;
  float m = -INFINITY;
  float l = 0.0f;
  for (long long j0 = 0; j0 < len; j0 += BLOCK) {
    const int n = static_cast<int>(len - j0 < BLOCK ? len - j0 : BLOCK);
    if (t < n) {
      const float* kr = kb + (j0 + t) * head_dim;
      float dot = 0.0f;
      for (int d = 0; d < head_dim; ++d) dot += qr[d] * kr[d];
      s[t] = dot * scale;
    }
    __syncthreads();
    float cm = m;
    for (int i = 0; i < n; ++i) cm = fmaxf(cm, s[i]);
    __syncthreads();  // every thread has read the raw scores
    if (t < n) s[t] = expf(s[t] - cm);
    __syncthreads();
    const float corr = expf(m - cm);  // 0 on the first chunk (m = -inf)
    float cl = 0.0f;
    for (int i = 0; i < n; ++i) cl += s[i];
    l = l * corr + cl;
    m = cm;
    for (int d = t; d < head_dim; d += BLOCK) {
      float a = acc[d] * corr;
      for (int i = 0; i < n; ++i) a += s[i] * vb[(j0 + i) * head_dim + d];
      acc[d] = a;
    }
    __syncthreads();  // s is rewritten by the next chunk
  }
  float* orow = o + bh * head_dim;
  for (int d = t; d < head_dim; d += BLOCK) orow[d] = len > 0 ? acc[d] / l : 0.0f;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long batch = inputs[1].shape[0];
  const long long heads = inputs[1].shape[1];
  const long long seq = inputs[1].shape[2];
  const int head_dim = static_cast<int>(inputs[1].shape[3]);
  const float scale = static_cast<float>(
      arena_param(params, num_params, "scale", 1.0 / sqrt(static_cast<double>(head_dim))));
  if (head_dim < 1 || head_dim > MAX_HEAD_DIM) return 1;
  if (batch * heads == 0) return 0;
  hipLaunchKernelGGL(decode_attention_kernel, dim3(static_cast<unsigned>(batch * heads)),
                     dim3(BLOCK), 0, stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<const int*>(inputs[3].data), static_cast<float*>(outputs[0].data),
                     heads, seq, head_dim, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
