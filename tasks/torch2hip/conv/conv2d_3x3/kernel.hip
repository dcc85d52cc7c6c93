// y = conv2d(x, weight, bias) with a 3x3 filter, padding 1 and stride `stride`,
// fp32 NCHW. A straightforward implementation: one thread per output element,
// each looping over all input channels and the 9 taps, reading every input
// value and weight straight from global memory (no tiling, no shared memory).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// y[n, k, oh, ow] = bias[k] + sum over c < C, r < 3, s < 3 of
//   x[n, c, oh * stride + r - 1, ow * stride + s - 1] * weight[k, c, r, s]
// (x taken as 0 outside the image). The output is flattened as [N, K, OH, OW].
__global__ void conv2d_3x3_kernel(const float* x, const float* w, const float* b, float* y,
                                  long long total, long long C, long long H, long long W,
                                  long long K, long long OH, long long OW, int stride) {
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long ow = idx % OW;
    const long long oh = (idx / OW) % OH;
    const long long k = (idx / (OW * OH)) % K;
    const long long n = idx / (OW * OH * K);
    float acc = b[k];
    for (long long c = 0; c < C; ++c) {
      const float* xc = x + (n * C + c) * H * W;
      const float* wc = w + (k * C + c) * 9;
      for (int r = 0; r < 3; ++r) {
        const long long ih = oh * stride + r - 1;
        if (ih < 0 || ih >= H) continue;
        for (int s = 0; s < 3; ++s) {
          const long long iw = ow * stride + s - 1;
          if (iw < 0 || iw >= W) continue;
          acc += xc[ih * W + iw] * wc[r * 3 + s];
        }
      }
    }
    y[idx] = acc;
  }
}

// inputs: x [N, C, H, W], weight [K, C, 3, 3], bias [K]; outputs: y [N, K, OH, OW]
// with OH = (H - 1) / stride + 1 and OW = (W - 1) / stride + 1.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long C = inputs[0].shape[1], H = inputs[0].shape[2], W = inputs[0].shape[3];
  const long long K = inputs[1].shape[0];
  const long long OH = outputs[0].shape[2], OW = outputs[0].shape[3];
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 1));
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(conv2d_3x3_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), total, C, H, W, K, OH, OW, stride);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
