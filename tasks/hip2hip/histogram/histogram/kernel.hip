#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

// counts[v] += 1 for every element v of x: one global atomic per element.
// Values outside [0, bins) (never drawn) are ignored rather than written out
// of bounds.
__global__ void histogram_kernel(const int* x, int* counts, long long n, int bins) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const int v = x[i];
    if (v >= 0 && v < bins) atomicAdd(&counts[v], 1);
  }
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const int bins = static_cast<int>(outputs[0].numel);
  // counts arrives poisoned: zero it first (on the same stream).
  if (hipMemsetAsync(outputs[0].data, 0, static_cast<size_t>(bins) * sizeof(int), stream) !=
      hipSuccess) {
    return 1;
  }
  if (n > 0) {
    const unsigned grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
    hipLaunchKernelGGL(histogram_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                       static_cast<const int*>(inputs[0].data),
                       static_cast<int*>(outputs[0].data), n, bins);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
