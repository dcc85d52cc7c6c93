// y = W @ x, fp32, W [M, K], x [K, 1]. A straightforward implementation: one
// thread per output row, walking its row of W and all of x from global
// memory (neighbouring threads read rows K floats apart, so loads are not
// coalesced; no shared memory, no vector loads, no cooperation within a row).
#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

__global__ void matvec_kernel(const float* w, const float* x, float* y, long long M,
                              long long K) {
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK;
  for (long long row = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; row < M;
       row += stride) {
    const float* wr = w + row * K;
    float acc = 0.0f;
    for (long long k = 0; k < K; ++k) acc += wr[k] * x[k];
    y[row] = acc;
  }
}

// inputs: w [M, K], x [K, 1]; outputs: y [M, 1].
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long M = inputs[0].shape[0], K = inputs[0].shape[1];
  if (M == 0) return 0;
  const long long blocks = (M + BLOCK - 1) / BLOCK;
  const unsigned grid = static_cast<unsigned>(blocks < 2147483647LL ? blocks : 2147483647LL);
  hipLaunchKernelGGL(matvec_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
