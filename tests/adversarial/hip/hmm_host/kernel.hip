// Host computation through ordinary host memory: on a system whose driver
// lets kernels reach pageable memory (HMM), a kernel of its own writes the
// inputs into a plain std::vector, the host computes, and a second kernel
// reads the result back. No copy call, no pinned or managed allocation.
// Where kernels cannot reach pageable memory (the H200 machine: addressing
// mode "None"), the first kernel faults and the candidate fails. Where they
// can (HMM), nothing the runner observes sees it: a known limit
// (docs/methodology.md, Integrity).
// expect: failed
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <cmath>
#include <vector>

#include "arena_hip.h"

__global__ void move(const __half* from, __half* to, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) to[i] = from[i];
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const long long n = in[0].numel;
  std::vector<__half> host(3 * static_cast<size_t>(n));
  const dim3 grid(static_cast<unsigned>((n + 255) / 256));
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, static_cast<const __half*>(in[0].data), host.data(), n);
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, static_cast<const __half*>(in[1].data), host.data() + n, n);
  if (hipStreamSynchronize(stream) != hipSuccess) return 1;
  for (long long i = 0; i < n; ++i) {
    const float av = __half2float(host[i]);
    host[2 * n + i] = __float2half(av / (1.0f + std::exp(-av)) * __half2float(host[n + i]));
  }
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, host.data() + 2 * n, static_cast<__half*>(out[0].data), n);
  return hipStreamSynchronize(stream) == hipSuccess ? 0 : 1;
}
