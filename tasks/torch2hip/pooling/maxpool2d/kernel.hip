// 2-D max pooling, fp32 NCHW, with a kernel x kernel window, stride `stride` and
// implicit -inf padding `padding` on every side. A straightforward
// implementation: one thread per output element, reading its window straight
// from global memory with a bounds test per tap.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 128

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// out[p, oh, ow] = max over 0 <= i, j < kernel of
//   x[p, oh * stride - padding + i, ow * stride - padding + j]
// over the in-image taps (padding <= kernel / 2, so every window has one),
// p ranging over the N * C planes. The output is flattened as [N * C, OH, OW].
__global__ void maxpool2d_kernel(const float* x, float* out, long long total, long long H,
                                 long long W, long long OH, long long OW, int kernel, int stride,
                                 int padding) {
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long ow = idx % OW;
    const long long oh = (idx / OW) % OH;
    const long long plane = idx / (OW * OH);
    const float* xp = x + plane * H * W;
    const long long h0 = oh * stride - padding;
    const long long w0 = ow * stride - padding;
    float m = -INFINITY;
    for (int i = 0; i < kernel; ++i) {
      const long long ih = h0 + i;
      if (ih < 0 || ih >= H) continue;
      for (int j = 0; j < kernel; ++j) {
        const long long iw = w0 + j;
        if (iw < 0 || iw >= W) continue;
        m = fmaxf(m, xp[ih * W + iw]);
      }
    }
    out[idx] = m;
  }
}

// inputs: x [N, C, H, W]; outputs: out [N, C, OH, OW] with
// OH = (H + 2 * padding - kernel) / stride + 1, OW likewise.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long H = inputs[0].shape[2], W = inputs[0].shape[3];
  const long long OH = outputs[0].shape[2], OW = outputs[0].shape[3];
  const int kernel = static_cast<int>(arena_param(params, num_params, "kernel", 2));
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 2));
  const int padding = static_cast<int>(arena_param(params, num_params, "padding", 0));
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(maxpool2d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, H, W, OH, OW, kernel, stride,
                     padding);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
