// 1-D average pooling, fp32 [N, C, L], with a window of `kernel` taps, stride
// `stride` and zero padding `padding` on both ends that counts in the average
// (count_include_pad): every window is divided by `kernel`. A straightforward
// implementation: one thread per output element, reading its window straight
// from global memory with a bounds test per tap.
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger outputs are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// out[p, o] = (1 / kernel) * sum over 0 <= j < kernel of x[p, o * stride - padding + j],
// taking x as 0 outside [0, L); p ranges over the N * C rows. The output is
// flattened as [N * C, LO].
__global__ void avgpool1d_kernel(const float* x, float* out, long long total, long long L,
                                 long long LO, int kernel, int stride, int padding) {
  for (long long idx = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; idx < total;
       idx += static_cast<long long>(gridDim.x) * BLOCK) {
    const long long o = idx % LO;
    const long long row = idx / LO;
    const float* xr = x + row * L;
    const long long start = o * stride - padding;
    float acc = 0.0f;
    for (int j = 0; j < kernel; ++j) {
      const long long i = start + j;
      if (i < 0 || i >= L) continue;
      acc += xr[i];
    }
    out[idx] = acc / static_cast<float>(kernel);
  }
}

// inputs: x [N, C, L]; outputs: out [N, C, LO] with LO = (L + 2 * padding - kernel) / stride + 1.
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long L = inputs[0].shape[2];
  const long long LO = outputs[0].shape[2];
  const int kernel = static_cast<int>(arena_param(params, num_params, "kernel", 1));
  const int stride = static_cast<int>(arena_param(params, num_params, "stride", 1));
  const int padding = static_cast<int>(arena_param(params, num_params, "padding", 0));
  if (kernel < 1 || stride < 1) return 1;
  const long long total = outputs[0].numel;
  if (total == 0) return 0;
  long long blocks = (total + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(avgpool1d_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), total, L, LO, kernel, stride,
                     padding);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
