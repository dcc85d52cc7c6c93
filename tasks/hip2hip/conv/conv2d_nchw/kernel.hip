#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// y[n, k, oh, ow] = sum over c, r, s of x[n, c, oh + r - pad, ow + s - pad] * w[k, c, r, s]
// (zero outside the image). One thread per output element over the flattened
// [N, K, H, W] output; every input and weight is read straight from global
// memory.
__global__ void conv2d_kernel(const float* x, const float* w, float* y, long long total, int C,
                              int H, int W, int K, int R, int pad) {
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int ow = static_cast<int>(idx % W);
  const int oh = static_cast<int>((idx / W) % H);
  const int k = static_cast<int>((idx / (static_cast<long long>(W) * H)) % K);
  const long long n = idx / (static_cast<long long>(W) * H * K);
  float acc = 0.0f;
  for (int c = 0; c < C; ++c) {
    const float* xc = x + (n * C + c) * H * W;
    const float* wc = w + (static_cast<long long>(k) * C + c) * R * R;
    for (int r = 0; r < R; ++r) {
      const int ih = oh + r - pad;
      if (ih < 0 || ih >= H) continue;
      for (int s = 0; s < R; ++s) {
        const int iw = ow + s - pad;
        if (iw < 0 || iw >= W) continue;
        acc += xc[static_cast<long long>(ih) * W + iw] * wc[r * R + s];
      }
    }
  }
  y[idx] = acc;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const int C = static_cast<int>(inputs[0].shape[1]);
  const int H = static_cast<int>(inputs[0].shape[2]);
  const int W = static_cast<int>(inputs[0].shape[3]);
  const int K = static_cast<int>(inputs[1].shape[0]);
  const int R = static_cast<int>(inputs[1].shape[2]);
  if (inputs[1].shape[3] != R || R % 2 == 0 || inputs[1].shape[1] != C) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  const unsigned grid = static_cast<unsigned>((total + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(conv2d_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), total, C, H, W, K, R, R / 2);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
