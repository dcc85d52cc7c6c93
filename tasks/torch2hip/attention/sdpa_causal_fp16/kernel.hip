// out = softmax(mask(Q K^T / sqrt(d))) V over [bh, seq, d] (bh = batch *
// heads), causal (query i sees keys j <= i), fp16 inputs and output with
// fp32 arithmetic. A straightforward implementation: one block per query row
// and a two-pass softmax. Pass 1: the threads split the visible keys, compute
// their scores and the block reduces the row maximum. Pass 2, over chunks of
// keys: recompute the scores, store p = exp(score - max) in shared memory and
// add them to the denominator, then thread c adds sum_j p_j * v[j, c] to its
// output column. Q, K and V are read straight from global memory.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128
#define KEY_CHUNK 1024

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// Sum / maximum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_sum(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__device__ float block_max(float v, float* red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();
  return total;
}

__device__ inline float score(const __half* qr, const __half* kr, long long d, float scale) {
  float s = 0.0f;
  for (long long c = 0; c < d; ++c) s += __half2float(qr[c]) * __half2float(kr[c]);
  return s * scale;
}

// Block b handles the query rows b, b + gridDim.x, ... of the rows = bh * seq
// rows. Dynamic shared memory: d floats (the output accumulators).
__global__ void sdpa_causal_kernel(const __half* q, const __half* k, const __half* v, __half* o,
                                   long long rows, long long seq, long long d, float scale) {
  __shared__ float red[BLOCK];
  __shared__ float p_sh[KEY_CHUNK];
  extern __shared__ float acc_sh[];
  const int t = threadIdx.x;
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    const long long head = row / seq;
    const long long i = row - head * seq;  // query position within its head
    const __half* qr = q + row * d;
    const __half* kh = k + head * seq * d;
    const __half* vh = v + head * seq * d;
    const long long n_keys = i + 1;  // keys 0..i are visible

    float m = -INFINITY;
    for (long long j = t; j < n_keys; j += BLOCK) m = fmaxf(m, score(qr, kh + j * d, d, scale));
    m = block_max(m, red);

    for (long long c = t; c < d; c += BLOCK) acc_sh[c] = 0.0f;
    float l = 0.0f;
    for (long long j0 = 0; j0 < n_keys; j0 += KEY_CHUNK) {
      const long long len = n_keys - j0 < KEY_CHUNK ? n_keys - j0 : KEY_CHUNK;
      for (long long j = t; j < len; j += BLOCK) {
        const float p = expf(score(qr, kh + (j0 + j) * d, d, scale) - m);
        p_sh[j] = p;
        l += p;
      }
      __syncthreads();
      for (long long c = t; c < d; c += BLOCK) {
        float a = acc_sh[c];
        for (long long j = 0; j < len; ++j) a += p_sh[j] * __half2float(vh[(j0 + j) * d + c]);
        acc_sh[c] = a;
      }
      __syncthreads();  // p_sh is overwritten by the next chunk
    }
    l = block_sum(l, red);
    const float inv = 1.0f / l;
    for (long long c = t; c < d; c += BLOCK) o[row * d + c] = __float2half(acc_sh[c] * inv);
  }
}

// inputs: q, k, v [bh, seq, d] (fp16); outputs: out [bh, seq, d] (fp16).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long bh = inputs[0].shape[0], seq = inputs[0].shape[1], d = inputs[0].shape[2];
  const long long rows = bh * seq;
  if (rows == 0 || d == 0) return 0;
  const float scale = static_cast<float>(1.0 / sqrt(static_cast<double>(d)));
  const unsigned grid = static_cast<unsigned>(rows < 2147483647LL ? rows : 2147483647LL);
  hipLaunchKernelGGL(sdpa_causal_kernel, dim3(grid), dim3(BLOCK),
                     static_cast<size_t>(d) * sizeof(float), stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const __half*>(inputs[1].data),
                     static_cast<const __half*>(inputs[2].data),
                     static_cast<__half*>(outputs[0].data), rows, seq, d, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
