// Host code built by a plain C++ compiler (no nvcc) against hip_on_cuda:
// the host API, hipRTC and the number types must compile there too, as
// launcher code that only loads hipRTC-built modules does not need nvcc.
// (NVIDIA only: ROCm's headers want hipcc or their own platform macros.)
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstdio>

int main() {
  int count = 0;
  const hipError_t e = hipGetDeviceCount(&count);
  hipDeviceProp_t prop;
  if (e == hipSuccess && count > 0 && hipGetDeviceProperties(&prop, 0) == hipSuccess) {
    std::printf("%s %s warp %d\n", prop.name, prop.gcnArchName, prop.warpSize);
  }
  float* p = nullptr;
  if (hipMalloc(&p, 16) == hipSuccess) (void)hipFree(p);
  hipModule_t module = nullptr;
  (void)module;
  int major = 0, minor = 0;
  (void)hiprtcVersion(&major, &minor);
  const hip_bfloat16 b(2.0f);
  const __half h = __float2half(1.0f);
  static_assert(warpSize == 32, "warpSize is a constant on the host too");
  std::printf("%s %d.%d %f %f\n", hipGetErrorName(e), major, minor, static_cast<float>(b),
              __half2float(h));
  return 0;
}
