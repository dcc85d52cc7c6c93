#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// out[b, d] = sum over j < bag_size of weight[indices[b, j], d]. One thread per
// output element; consecutive threads take consecutive d, so the row loads are
// coalesced, but each thread reloads the bag's indices and waits on each index
// before it can load the row element.
__global__ void embedding_bag_sum_kernel(const float* weight, const int* indices, float* out,
                                         long long total, long long dim, int bag_size) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < total) {
    const long long b = i / dim;
    const long long d = i - b * dim;
    const int* idx = indices + b * bag_size;
    float acc = 0.0f;
    for (int j = 0; j < bag_size; ++j) acc += weight[static_cast<long long>(idx[j]) * dim + d];
    out[i] = acc;
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long dim = inputs[0].shape[1];
  const int bag_size = static_cast<int>(inputs[1].shape[1]);
  const long long total = outputs[0].numel;  // bags * dim
  if (total == 0) return 0;
  const unsigned grid = static_cast<unsigned>((total + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(embedding_bag_sum_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const float*>(inputs[0].data),
                     static_cast<const int*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), total, dim, bag_size);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
