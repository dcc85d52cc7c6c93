// Types, errors and devices: hipError_t values and names, hipMemcpyKind,
// hipGetDeviceCount/SetDevice/GetDevice, hipDeviceProp_t through
// hipGetDeviceProperties, hipDeviceGetAttribute, versions, half precision
// (__half, __half2) and bfloat16 (hip_bfloat16; __hip_bfloat16 on NVIDIA),
// hipDeviceReset.
//
// The checks before the GPU check need no device and run everywhere.
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstring>
#include <vector>

#include "hip_test_util.h"

__global__ void half_ops(const float* in, float* out) {
  const int i = threadIdx.x;
  const __half a = __float2half(in[i]);
  const __half b = __float2half(2.0f);
  out[i * 4 + 0] = __half2float(__hadd(a, b));
  out[i * 4 + 1] = __half2float(__hfma(a, b, __float2half(1.0f)));
  const __half2 pair = __halves2half2(a, __hmul(a, b));
  const __half2 sum = __hadd2(pair, pair);
  out[i * 4 + 2] = __low2float(sum);
  out[i * 4 + 3] = __high2float(sum);
}

__global__ void bf16_ops(const hip_bfloat16* in, hip_bfloat16* out, float* as_float) {
  const int i = threadIdx.x;
  const hip_bfloat16 x = in[i];
  out[i] = x * hip_bfloat16(2.0f) + hip_bfloat16(1.0f);
  as_float[i] = static_cast<float>(x);
}

namespace {

// --- no device needed --------------------------------------------------------

bool test_error_values_and_names() {
  const char* name = "hipError_t values, hipGetErrorName, hipGetErrorString";
  bool ok = true;
  HT_EXPECT(static_cast<int>(hipSuccess) == 0);
  HT_EXPECT(static_cast<int>(hipErrorInvalidValue) == 1);
  HT_EXPECT(static_cast<int>(hipErrorOutOfMemory) == 2);
  HT_EXPECT(static_cast<int>(hipErrorNoDevice) == 100);
  HT_EXPECT(static_cast<int>(hipErrorInvalidDevice) == 101);
  HT_EXPECT(static_cast<int>(hipErrorNotReady) == 600);
  HT_EXPECT(std::strcmp(hipGetErrorName(hipSuccess), "hipSuccess") == 0);
  HT_EXPECT(std::strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue") == 0);
  HT_EXPECT(std::strcmp(hipGetErrorName(hipErrorNotReady), "hipErrorNotReady") == 0);
  const char* text = hipGetErrorString(hipErrorInvalidValue);
  HT_EXPECT(text != nullptr && std::strlen(text) > 0);
  std::printf("  hipErrorInvalidValue: \"%s\"\n", text);
  return hiptest::report(name, ok);
}

bool test_enum_values() {
  const char* name = "hipMemcpyKind and flag values";
  bool ok = true;
  HT_EXPECT(static_cast<int>(hipMemcpyHostToHost) == 0);
  HT_EXPECT(static_cast<int>(hipMemcpyHostToDevice) == 1);
  HT_EXPECT(static_cast<int>(hipMemcpyDeviceToHost) == 2);
  HT_EXPECT(static_cast<int>(hipMemcpyDeviceToDevice) == 3);
  HT_EXPECT(static_cast<int>(hipMemcpyDefault) == 4);
  HT_EXPECT(hipStreamNonBlocking == 1 && hipEventDisableTiming == 2);
  return hiptest::report(name, ok);
}

bool test_bfloat16_host() {
  const char* name = "hip_bfloat16 on the host: rounding, conversion, arithmetic";
  bool ok = true;
  HT_EXPECT(sizeof(hip_bfloat16) == 2);
  HT_EXPECT(static_cast<float>(hip_bfloat16(1.5f)) == 1.5f);
  // Ties round to even: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7.
  HT_EXPECT(static_cast<float>(hip_bfloat16(1.00390625f)) == 1.0f);
  HT_EXPECT(static_cast<float>(hip_bfloat16(1.01171875f)) == 1.015625f);
  const hip_bfloat16 a(3.0f), b(0.5f);
  HT_EXPECT(static_cast<float>(a + b) == 3.5f);
  HT_EXPECT(static_cast<float>(a * b) == 1.5f);
  HT_EXPECT(static_cast<float>(a - b) == 2.5f);
  HT_EXPECT(static_cast<float>(a / b) == 6.0f);
  HT_EXPECT(b < a && a > b && a != b);
  hip_bfloat16 c = a;
  c += b;
  HT_EXPECT(static_cast<float>(c) == 3.5f);
  HT_EXPECT(static_cast<float>(-a) == -3.0f);
  HT_EXPECT(static_cast<float>(+a) == 3.0f);
  HT_EXPECT(a == hip_bfloat16(3.0f) && b <= a && a >= b && a <= hip_bfloat16(3.0f));
  c -= b;
  HT_EXPECT(static_cast<float>(c) == 3.0f);
  c *= b;
  HT_EXPECT(static_cast<float>(c) == 1.5f);
  c /= b;
  HT_EXPECT(static_cast<float>(c) == 3.0f);
  HT_EXPECT(static_cast<float>(hip_bfloat16::round_to_bfloat16(0.1875f)) == 0.1875f);
  const float implicit = a;  // hip_bfloat16 converts to float implicitly
  HT_EXPECT(implicit == 3.0f);
#if defined(__HIP_PLATFORM_NVIDIA__)
  // __hip_bfloat16 is CUDA's __nv_bfloat16 here (HIP 5.2 has no such type).
  const __hip_bfloat16 nb = __float2bfloat16(2.25f);
  HT_EXPECT(__bfloat162float(nb) == 2.25f);
  HT_EXPECT(static_cast<float>(hip_bfloat16(nb)) == 2.25f);
  HT_EXPECT(__bfloat162float(static_cast<__hip_bfloat16>(a)) == 3.0f);
#endif
  return hiptest::report(name, ok);
}

bool test_half_host() {
  const char* name = "__half conversions on the host";
  bool ok = true;
  const __half h = __float2half(0.75f);
  HT_EXPECT(__half2float(h) == 0.75f);
  HT_EXPECT(sizeof(__half) == 2 && sizeof(__half2) == 4);
  return hiptest::report(name, ok);
}

// --- device checks ------------------------------------------------------------

bool test_devices() {
  const char* name = "hipGetDeviceCount, hipSetDevice, hipGetDevice, versions";
  bool ok = true;
  int count = 0, device = -1, driver = 0, runtime = 0;
  HT_CALL(hipGetDeviceCount(&count));
  HT_EXPECT(count >= 1);
  HT_CALL(hipSetDevice(count - 1));
  HT_CALL(hipGetDevice(&device));
  HT_EXPECT(device == count - 1);
  HT_CALL(hipSetDevice(0));
  HT_CALL(hipGetDevice(&device));
  HT_EXPECT(device == 0);
  HT_EXPECT(hipSetDevice(count) != hipSuccess);  // out of range
  (void)hipGetLastError();
  HT_CALL(hipDriverGetVersion(&driver));
  HT_CALL(hipRuntimeGetVersion(&runtime));
  std::printf("  %d device(s); driver version %d, runtime version %d\n", count, driver, runtime);
  HT_EXPECT(driver > 0 && runtime > 0);
  return hiptest::report(name, ok);
}

bool test_device_properties() {
  const char* name = "hipGetDeviceProperties fields, consistent with hipDeviceGetAttribute";
  bool ok = true;
  hipDeviceProp_t p;
  HT_REQUIRE(hipGetDeviceProperties(&p, 0));
  std::printf("  %s (%s): %d SMs, warp %d, %zu MiB, L2 %d KiB, smem/block %zu, smem/SM %zu, "
              "clock %d kHz, memory clock %d kHz\n",
              p.name, p.gcnArchName, p.multiProcessorCount, p.warpSize, p.totalGlobalMem >> 20,
              p.l2CacheSize >> 10, p.sharedMemPerBlock, p.maxSharedMemoryPerMultiProcessor,
              p.clockRate, p.memoryClockRate);
  HT_EXPECT(std::strlen(p.name) > 0);
  HT_EXPECT(std::strlen(p.gcnArchName) > 0);
  HT_EXPECT(p.totalGlobalMem > 0);
  HT_EXPECT(p.sharedMemPerBlock >= 16 * 1024);
  HT_EXPECT(p.regsPerBlock > 0);
  HT_EXPECT(p.warpSize == warpSize);
  HT_EXPECT(p.maxThreadsPerBlock >= 256);
  HT_EXPECT(p.maxThreadsDim[0] >= 256 && p.maxThreadsDim[1] >= 1 && p.maxThreadsDim[2] >= 1);
  HT_EXPECT(p.maxGridSize[0] >= 65535 && p.maxGridSize[1] >= 1 && p.maxGridSize[2] >= 1);
  HT_EXPECT(p.multiProcessorCount > 0);
  HT_EXPECT(p.l2CacheSize > 0);
  HT_EXPECT(p.major >= 1 && p.minor >= 0);
  HT_EXPECT(p.maxSharedMemoryPerMultiProcessor >= p.sharedMemPerBlock);
  HT_EXPECT(p.clockRate >= 0 && p.memoryClockRate >= 0);
#if defined(__HIP_PLATFORM_NVIDIA__)
  char expect_arch[32];
  std::snprintf(expect_arch, sizeof(expect_arch), "sm_%d%d", p.major, p.minor);
  HT_EXPECT(std::strcmp(p.gcnArchName, expect_arch) == 0);
#endif
  struct {
    hipDeviceAttribute_t attr;
    long long expect;
    const char* what;
  } const pairs[] = {
      {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount, "multiProcessorCount"},
      {hipDeviceAttributeComputeCapabilityMajor, p.major, "major"},
      {hipDeviceAttributeComputeCapabilityMinor, p.minor, "minor"},
      {hipDeviceAttributeWarpSize, p.warpSize, "warpSize"},
      {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock, "maxThreadsPerBlock"},
      {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0], "maxThreadsDim[0]"},
      {hipDeviceAttributeMaxGridDimX, p.maxGridSize[0], "maxGridSize[0]"},
      {hipDeviceAttributeL2CacheSize, p.l2CacheSize, "l2CacheSize"},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, static_cast<long long>(p.sharedMemPerBlock),
       "sharedMemPerBlock"},
      {hipDeviceAttributeMaxRegistersPerBlock, p.regsPerBlock, "regsPerBlock"},
      {hipDeviceAttributeClockRate, p.clockRate, "clockRate"},
      {hipDeviceAttributeMemoryClockRate, p.memoryClockRate, "memoryClockRate"},
      {hipDeviceAttributeMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor,
       "maxThreadsPerMultiProcessor"},
  };
  for (const auto& pair : pairs) {
    int value = -1;
    HT_CALL(hipDeviceGetAttribute(&value, pair.attr, 0));
    if (value != pair.expect) {
      std::printf("  attribute for %s: %d, property: %lld\n", pair.what, value, pair.expect);
      ok = false;
    }
  }
  return hiptest::report(name, ok);
}

bool test_all_attributes() {
  const char* name = "hipDeviceGetAttribute answers every mapped attribute";
  bool ok = true;
  const hipDeviceAttribute_t all[] = {
      hipDeviceAttributeMaxThreadsPerBlock, hipDeviceAttributeMaxBlockDimX,
      hipDeviceAttributeMaxBlockDimY, hipDeviceAttributeMaxBlockDimZ,
      hipDeviceAttributeMaxGridDimX, hipDeviceAttributeMaxGridDimY,
      hipDeviceAttributeMaxGridDimZ, hipDeviceAttributeMaxSharedMemoryPerBlock,
      hipDeviceAttributeSharedMemPerBlockOptin, hipDeviceAttributeSharedMemPerMultiprocessor,
      hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, hipDeviceAttributeTotalConstantMemory,
      hipDeviceAttributeWarpSize, hipDeviceAttributeMaxRegistersPerBlock,
      hipDeviceAttributeMaxRegistersPerMultiprocessor, hipDeviceAttributeClockRate,
      hipDeviceAttributeMemoryClockRate, hipDeviceAttributeMemoryBusWidth,
      hipDeviceAttributeMultiprocessorCount, hipDeviceAttributeL2CacheSize,
      hipDeviceAttributeMaxThreadsPerMultiProcessor, hipDeviceAttributeMaxBlocksPerMultiProcessor,
      hipDeviceAttributeComputeCapabilityMajor, hipDeviceAttributeComputeCapabilityMinor,
      hipDeviceAttributeComputeMode, hipDeviceAttributeKernelExecTimeout,
      hipDeviceAttributeConcurrentKernels, hipDeviceAttributeAsyncEngineCount,
      hipDeviceAttributePciBusId, hipDeviceAttributePciDeviceId, hipDeviceAttributePciDomainID,
      hipDeviceAttributeIsMultiGpuBoard, hipDeviceAttributeIntegrated,
      hipDeviceAttributeCanMapHostMemory, hipDeviceAttributeEccEnabled,
      hipDeviceAttributeUnifiedAddressing, hipDeviceAttributeManagedMemory,
      hipDeviceAttributeConcurrentManagedAccess, hipDeviceAttributePageableMemoryAccess,
      hipDeviceAttributeDirectManagedMemAccessFromHost, hipDeviceAttributeCooperativeLaunch,
      hipDeviceAttributeStreamPrioritiesSupported, hipDeviceAttributeMemoryPoolsSupported,
      hipDeviceAttributeHostNativeAtomicSupported, hipDeviceAttributeMaxPitch,
  };
  for (const hipDeviceAttribute_t attr : all) {
    int value = 0;
    const hipError_t e = hipDeviceGetAttribute(&value, attr, 0);
    if (e != hipSuccess) {
      std::printf("  attribute %d: %s\n", static_cast<int>(attr), hipGetErrorName(e));
      ok = false;
    }
  }
  (void)hipGetLastError();
  return hiptest::report(name, ok);
}

bool test_half_device() {
  const char* name = "__half / __half2 arithmetic in a kernel";
  bool ok = true;
  const int n = 32;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.25f * i - 3.0f;  // exact in half
  float *in = nullptr, *out = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(float)));
  HT_REQUIRE(hipMalloc(&out, 4 * n * sizeof(float)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(half_ops, dim3(1), dim3(n), 0, 0, in, out);
  std::vector<float> r(4 * n);
  HT_CALL(hipMemcpy(r.data(), out, r.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    HT_EXPECT(r[4 * i + 0] == h[i] + 2.0f);
    HT_EXPECT(r[4 * i + 1] == h[i] * 2.0f + 1.0f);
    HT_EXPECT(r[4 * i + 2] == 2.0f * h[i]);
    HT_EXPECT(r[4 * i + 3] == 4.0f * h[i]);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  return hiptest::report(name, ok);
}

bool test_bfloat16_device() {
  const char* name = "hip_bfloat16 in a kernel";
  bool ok = true;
  const int n = 64;
  std::vector<hip_bfloat16> h(n);
  for (int i = 0; i < n; ++i) h[i] = hip_bfloat16(0.5f * i - 8.0f);
  hip_bfloat16 *in = nullptr, *out = nullptr;
  float* as_float = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(hip_bfloat16)));
  HT_REQUIRE(hipMalloc(&out, n * sizeof(hip_bfloat16)));
  HT_REQUIRE(hipMalloc(&as_float, n * sizeof(float)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(hip_bfloat16), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(bf16_ops, dim3(1), dim3(n), 0, 0, in, out, as_float);
  std::vector<hip_bfloat16> r(n);
  std::vector<float> f(n);
  HT_CALL(hipMemcpy(r.data(), out, n * sizeof(hip_bfloat16), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(f.data(), as_float, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float x = 0.5f * i - 8.0f;
    HT_EXPECT(f[i] == x);
    HT_EXPECT(static_cast<float>(r[i]) == 2.0f * x + 1.0f);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  HT_CALL(hipFree(as_float));
  return hiptest::report(name, ok);
}

bool test_device_reset() {
  const char* name = "hipDeviceSynchronize and hipDeviceReset";
  bool ok = true;
  void* p = nullptr;
  HT_CALL(hipMalloc(&p, 1024));
  HT_CALL(hipDeviceSynchronize());
  HT_CALL(hipDeviceReset());  // frees p with everything else
  HT_CALL(hipMalloc(&p, 1024));  // the device is usable again
  HT_CALL(hipFree(p));
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  test_error_values_and_names();
  test_enum_values();
  test_bfloat16_host();
  test_half_host();
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("types");
  test_devices();
  test_device_properties();
  test_all_attributes();
  test_half_device();
  test_bfloat16_device();
  test_device_reset();
  return hiptest::finish("types");
}
