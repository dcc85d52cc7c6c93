// What the probes share: the kernel a launch-bound round repeats (one block
// touching 256 bytes in and 256 out of its set) and a check that ends the
// probe on a CUDA error.
#ifndef ARENA_TOOLS_GPU_PROBES_PROBE_CUH_
#define ARENA_TOOLS_GPU_PROBES_PROBE_CUH_

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace probe {

constexpr size_t kSetBytes = 1024;  // 256 B of input, 256 B of output, padding

__global__ void Tiny(const float* in, float* out) {
  const int i = threadIdx.x;
  out[i] = in[i] * 2.f + 1.f;
}

inline void Check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace probe

#endif  // ARENA_TOOLS_GPU_PROBES_PROBE_CUH_
