// 1-D max pooling, fp32 [N, C, L], with a window of `kernel` taps, stride
// `stride` and implicit -inf padding `padding` on both ends:
//   out[p, o] = max over 0 <= j < kernel of x[p, o * stride - padding + j]
// over the taps inside [0, L) (padding <= kernel / 2, so every window has
// one), p ranging over the N * C rows. A straightforward implementation: one
// thread per output element, reading its window straight from global memory
// with a bounds test per tap.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

__global__ void maxpool1d_kernel(const float* x, float* out, long long total, long long L,
                                 long long LO, int kernel, int stride, int padding) {
  const long long step = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += step) {
    const long long row = idx / LO;
    const long long o = idx - row * LO;
    const float* xr = x + row * L;
    const long long start = o * stride - padding;
    float m = -INFINITY;
    for (int j = 0; j < kernel; ++j) {
      const long long i = start + j;
      if (i >= 0 && i < L) m = fmaxf(m, xr[i]);
    }
    out[idx] = m;
  }
}

// inputs: x [N, C, L] (fp32); outputs: out [N, C, LO] (fp32) with
// LO = (L + 2 * padding - kernel) / stride + 1; parameters kernel, stride,
// padding.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long L = inputs[0].shape[2];
  const long long LO = outputs[0].shape[2];
  const int kernel = static_cast<int>(arena_param(params, num_params, "kernel", 2));
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 2));
  const int padding = static_cast<int>(arena_param(params, num_params, "padding", 0));
  if (kernel < 1 || stride < 1) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(maxpool1d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, L, LO, kernel, stride,
                     padding);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
