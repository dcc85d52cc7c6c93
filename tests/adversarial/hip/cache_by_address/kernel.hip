// Caching by address: refuses graph capture (so that it is called eagerly)
// and skips any call whose buffers it has seen, as if their contents
// could not have changed. A call it skips launches no kernel, which the
// runner sees (and every trial is new data in the same lent memory).
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

static int Launch(const ArenaTensor* in, ArenaTensor* out, hipStream_t stream) {
  const long long n = in[0].numel;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

#include <set>
#include <utility>
extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static std::set<std::pair<const void*, void*>> seen;
  hipStreamCaptureStatus capturing = hipStreamCaptureStatusNone;
  hipStreamIsCapturing(stream, &capturing);
  if (capturing != hipStreamCaptureStatusNone) return 1;
  if (!seen.insert({in[0].data, out[0].data}).second) return 0;
  return Launch(in, out, stream);
}
