// Keeping data in L2 across calls: sets aside as much of the L2 as the
// device allows for persisting accesses and marks its inputs' memory
// persisting on its stream. The judge writes each round's inputs to the
// same lent memory and evicts the L2 with ordinary writes before every
// round; persisting lines are not taken by such writes, so without a
// defense the inputs of a round could be found in L2 by the candidate
// while the baseline reads them from memory. The runner's observer sees the
// set-aside and the access-policy window (CUPTI callbacks) and names them,
// whether or not the device granted them.
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include <cuda_runtime_api.h>
#endif

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

static void KeepInL2(const void* base, size_t bytes, hipStream_t stream) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  int device = 0, set_aside = 0, window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&set_aside, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(set_aside));
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow.base_ptr = const_cast<void*>(base);
  v.accessPolicyWindow.num_bytes = bytes < static_cast<size_t>(window) ? bytes : static_cast<size_t>(window);
  v.accessPolicyWindow.hitRatio = 1.0f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  cudaStreamSetAttribute(reinterpret_cast<cudaStream_t>(stream), cudaStreamAttributeAccessPolicyWindow, &v);
#else
  (void)base;
  (void)bytes;
  (void)stream;
#endif
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const long long n = in[0].numel;
  KeepInL2(in[0].data, static_cast<size_t>(n) * sizeof(__half) * 2, stream);
  (void)hipGetLastError();  // whatever the device refused, the call goes on
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
