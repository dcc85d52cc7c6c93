// GLU over the last dimension of an fp32 [rows, 2 d] matrix:
//   y[r, c] = x[r, c] * sigmoid(x[r, d + c]),   y is [rows, d],
// with sigmoid(v) = 1 / (1 + exp(-v)). A straightforward implementation: one
// thread per output element (a grid-stride loop for very large tensors), the
// row and column recovered with 64-bit integer arithmetic, scalar loads and
// stores.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

// The most blocks launched; larger tensors are covered by a grid-stride loop.
#define MAX_GRID 1048576

__global__ void glu_kernel(const float* x, float* y, long long n, long long d) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const long long r = i / d;
    const long long c = i - r * d;
    const float* xr = x + r * 2 * d;
    const float a = xr[c];
    const float b = xr[d + c];
    y[i] = a / (1.0f + expf(-b));
  }
}

// inputs: x [rows, 2 d] (fp32); outputs: y [rows, d] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long d = outputs[0].shape[1];
  const long long n = outputs[0].numel;
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(glu_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), n, d);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
