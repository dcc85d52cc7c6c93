#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// out[b, c, oh, ow] = mean over 0 <= i, j < k of x[b, c, oh * s + i, ow * s + j].
// One thread per output element over the flattened [N * C, OH, OW] output,
// reading its whole window from global memory.
__global__ void avgpool2d_kernel(const float* x, float* out, long long total, long long H,
                                 long long W, long long OH, long long OW, int k, int s) {
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const long long ow = idx % OW;
  const long long oh = (idx / OW) % OH;
  const long long plane = idx / (OW * OH);
  const float* p = x + plane * H * W + (oh * s) * W + ow * s;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) sum += p[i * W + j];
  }
  out[idx] = sum / static_cast<float>(k * k);
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long H = inputs[0].shape[2];
  const long long W = inputs[0].shape[3];
  const long long OH = outputs[0].shape[2];
  const long long OW = outputs[0].shape[3];
  const int k = static_cast<int>(arena_param(params, num_params, "k", 2));
  const int s = static_cast<int>(arena_param(params, num_params, "s", 2));
  if (k < 1 || s < 1 || (OH - 1) * s + k > H || (OW - 1) * s + k > W) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  const unsigned grid = static_cast<unsigned>((total + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(avgpool2d_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, H, W, OH, OW, k, s);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
