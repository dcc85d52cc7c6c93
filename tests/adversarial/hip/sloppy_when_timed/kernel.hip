// Exact when checked; when its calls are captured for a timed round's
// graph, 1.5 times the tolerance off (a stand-in for a cheaper, less
// precise path; eager timed rounds are exact too): within twice the
// tolerance of the baseline's outputs, which every timed round compares
// with, outside the tolerance of the reference, which three rounds chosen
// in secret are held to.
// expect: failed
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n, float off) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    float v = av / (1.0f + expf(-av)) * bv;
    // The task's float16 tolerance is atol 2e-3, rtol 5e-3.
    y[i] = __float2half(v + off * (2e-3f + 5e-3f * fabsf(v)));
  }
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const long long n = in[0].numel;
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  const bool timed =
      hipStreamIsCapturing(stream, &status) == hipSuccess && status == hipStreamCaptureStatusActive;
  const float off = timed ? 1.5f : 0.0f;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n, off);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
