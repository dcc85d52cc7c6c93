// 2-D average pooling, fp32 NCHW, with a square window of `kernel` x `kernel`
// taps, stride `stride` and zero padding `padding` on every side that counts
// in the average (count_include_pad): every window is divided by
// kernel * kernel. A straightforward implementation: one thread per output
// element, reading its window straight from global memory with a bounds test
// per tap.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// out[p, oh, ow] = (1 / kernel^2) * sum over 0 <= i, j < kernel of
//   x[p, oh * stride - padding + i, ow * stride - padding + j],
// taking x as 0 outside the H x W image; p ranges over the N * C planes. The
// output is flattened as [N * C, OH, OW].
__global__ void avgpool2d_kernel(const float* x, float* out, long long total, long long H,
                                 long long W, long long OH, long long OW, int kernel, int stride,
                                 int padding) {
  const float scale = 1.0f / static_cast<float>(kernel * kernel);
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long ow = idx % OW;
    const long long oh = (idx / OW) % OH;
    const long long p = idx / (OW * OH);
    const float* xp = x + p * H * W;
    const long long h0 = oh * stride - padding;
    const long long w0 = ow * stride - padding;
    float acc = 0.0f;
    for (int i = 0; i < kernel; ++i) {
      const long long h = h0 + i;
      if (h < 0 || h >= H) continue;
      for (int j = 0; j < kernel; ++j) {
        const long long w = w0 + j;
        if (w < 0 || w >= W) continue;
        acc += xp[h * W + w];
      }
    }
    out[idx] = acc * scale;
  }
}

// inputs: x [N, C, H, W]; outputs: out [N, C, OH, OW] with
// OH = (H + 2 * padding - kernel) / stride + 1 and likewise OW.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long H = inputs[0].shape[2], W = inputs[0].shape[3];
  const long long OH = outputs[0].shape[2], OW = outputs[0].shape[3];
  const int kernel = static_cast<int>(arena_param(params, num_params, "kernel", 1));
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 1));
  const int padding = static_cast<int>(arena_param(params, num_params, "padding", 0));
  if (kernel < 1 || stride < 1) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(avgpool2d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, H, W, OH, OW, kernel, stride,
                     padding);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
