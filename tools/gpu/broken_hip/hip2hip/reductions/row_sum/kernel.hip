// Deliberately broken candidate: an illegal address (a write far past the output).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// out[r] = sum over c of x[r, c]. One thread per row walks its row in order.
__global__ void row_sum_kernel(const float* x, float* out, long long rows, long long cols) {
  out[(1ll << 40) + threadIdx.x] = 0.0f;  // an illegal address

  long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float* xr = x + r * cols;
    float acc = 0.0f;
    for (long long c = 0; c < cols; ++c) acc += xr[c];
    out[r] = acc;
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0) return 0;
  const unsigned grid = static_cast<unsigned>((rows + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(row_sum_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
