// y = mish(x) = x * tanh(softplus(x)), softplus(x) = log(1 + exp(x)), fp32.
// A straightforward implementation: one thread per element (a grid-stride
// loop for very large tensors), scalar loads and stores, library expf,
// log1pf and tanhf.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256
#define MAX_GRID 1048576

__global__ void mish_kernel(const float* x, float* y, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    // Above 20, softplus(v) = v and tanh of it is 1 to fp32 precision (this
    // also keeps expf from overflowing).
    const float sp = v > 20.0f ? v : log1pf(expf(v));
    y[i] = v * tanhf(sp);
  }
}

// inputs: x [rows, cols] (fp32); outputs: y [rows, cols] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  if (n == 0) return 0;
  long long blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks > MAX_GRID) blocks = MAX_GRID;
  hipLaunchKernelGGL(mish_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
