// Answers before the work exists: the kernel is launched by a thread
// 20 ms later, after the runner has said "done". The call itself launched
// no kernel, which the runner sees (and its outputs are not there yet).
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

#include <chrono>
#include <thread>
extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t) {
  std::thread([=] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hipStream_t s;
    hipStreamCreate(&s);
    Launch(in, out, s);
  }).detach();
  return 0;
}
