// y = conv_transpose1d(x, weight, bias) with a filter of `kernel` taps and
// stride `stride` (no padding), fp32 [N, C, L]. Every input position i
// scatters x[n, ci, i] * weight[ci, co, j] to output position i * stride + j;
// gathered per output instead:
//   y[n, co, t] = bias[co] + sum over ci < C_in, j < kernel with
//                 (t - j) % stride == 0 and 0 <= (t - j) / stride < L of
//                 x[n, ci, (t - j) / stride] * weight[ci, co, j].
// A straightforward implementation: one thread per output element, each
// looping over all input channels and taps, testing every tap and reading
// every input value and weight straight from global memory (no tiling, no
// shared memory).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// The output is flattened as [N, C_out, LO] with LO = (L - 1) * stride + kernel.
__global__ void conv_transpose1d_kernel(const float* x, const float* w, const float* b, float* y,
                                        long long total, long long C_in, long long L,
                                        long long C_out, long long LO, int kernel, int stride) {
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long t = idx % LO;
    const long long co = (idx / LO) % C_out;
    const long long n = idx / (LO * C_out);
    float acc = b[co];
    for (long long ci = 0; ci < C_in; ++ci) {
      const float* xc = x + (n * C_in + ci) * L;
      const float* wc = w + (ci * C_out + co) * kernel;
      for (int j = 0; j < kernel; ++j) {
        const long long s = t - j;
        if (s < 0 || s % stride != 0) continue;
        const long long i = s / stride;
        if (i >= L) continue;
        acc += xc[i] * wc[j];
      }
    }
    y[idx] = acc;
  }
}

// inputs: x [N, C_in, L], weight [C_in, C_out, kernel], bias [C_out];
// outputs: y [N, C_out, LO] with LO = (L - 1) * stride + kernel.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long C_in = inputs[0].shape[1], L = inputs[0].shape[2];
  const long long C_out = inputs[1].shape[1];
  const int kernel = static_cast<int>(inputs[1].shape[2]);
  const long long LO = outputs[0].shape[2];
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 1));
  if (stride < 1) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(conv_transpose1d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<const float*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), total, C_in, L, C_out, LO, kernel,
                     stride);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
