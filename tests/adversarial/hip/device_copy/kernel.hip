// An honest candidate that copies within device memory: y = b first
// (hipMemcpyAsync, device to device), then y *= silu(a) in place. Copies
// and sets on the GPU are the subject's own GPU work: no false alarm from
// the inspection of its captured graph or from the timed rounds' watch on
// copy calls (which the graph's replay does not make).
// expect: passed
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void scale_by_silu(const __half* a, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * __half2float(y[i]));
  }
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const long long n = in[0].numel;
  if (n == 0) return 0;
  if (hipMemcpyAsync(out[0].data, in[1].data, static_cast<size_t>(n) * sizeof(__half), hipMemcpyDeviceToDevice,
                     stream) != hipSuccess) {
    return 1;
  }
  hipLaunchKernelGGL(scale_by_silu, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
