// Host computation without a copy call: a kernel of its own writes the
// inputs into pinned host memory the GPU can reach, the host computes, a
// second kernel reads the result back. Kernels are launched, and no
// device-to-host copy is ever asked for.
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <cmath>

#include "arena_hip.h"

__global__ void move(const __half* from, __half* to, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) to[i] = from[i];
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const long long n = in[0].numel;
  static __half* host = nullptr;
  static long long held = 0;
  if (held < n) {
    if (host != nullptr) hipHostFree(host);
    if (hipHostMalloc(reinterpret_cast<void**>(&host), 3 * n * sizeof(__half)) != hipSuccess) return 1;
    held = n;
  }
  const dim3 grid(static_cast<unsigned>((n + 255) / 256));
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, static_cast<const __half*>(in[0].data), host, n);
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, static_cast<const __half*>(in[1].data), host + n, n);
  if (hipStreamSynchronize(stream) != hipSuccess) return 1;
  for (long long i = 0; i < n; ++i) {
    const float av = __half2float(host[i]);
    host[2 * n + i] = __float2half(av / (1.0f + std::exp(-av)) * __half2float(host[n + i]));
  }
  hipLaunchKernelGGL(move, grid, dim3(256), 0, stream, host + 2 * n, static_cast<__half*>(out[0].data), n);
  return hipStreamSynchronize(stream) == hipSuccess ? 0 : 1;
}
