// Hands its inputs' device memory to another process: asks for an IPC
// handle to the first input (a process of its own could open it, with a
// CUDA context no observer watches, and compute there or on the host).
// It then computes honestly; the export alone is what the judge refuses.
// (The lent memory is not the runtime's own allocation, so the call may
// fail; the runner sees it made.)
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

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static bool exported = false;
  if (!exported && in[0].numel > 0) {
    hipIpcMemHandle_t handle;
    (void)hipIpcGetMemHandle(&handle, in[0].data);
    (void)hipGetLastError();
    exported = true;
  }
  const long long n = in[0].numel;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
