// Memory: hipMalloc/hipFree, hipMemcpy(+Async) in every direction,
// hipMemset(+Async), pinned and managed memory, symbols, hipMemGetInfo,
// the module-style hipMemcpyHtoD/DtoH/DtoD.
#include <hip/hip_runtime.h>

#include <cstring>
#include <vector>

#include "hip_test_util.h"

__constant__ float c_coeffs[4];
__device__ int d_counter;
__device__ float d_table[8];

__global__ void scale(float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void apply_symbols(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = c_coeffs[i % 4] + d_table[i % 8];
  if (i == 0) d_counter += 7;
}

__global__ void fill_index(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i * 3;
}

namespace {

bool test_malloc_memcpy_roundtrip() {
  const char* name = "hipMalloc+hipMemcpy round trip (H2D, D2D, D2H, kernel)";
  bool ok = true;
  const int n = 1000;
  std::vector<float> host(n), back(n, -1.0f);
  for (int i = 0; i < n; ++i) host[i] = 0.5f * i;
  float* a = nullptr;
  void* b = nullptr;
  HT_REQUIRE(hipMalloc(&a, n * sizeof(float)));  // typed overload
  HT_REQUIRE(hipMalloc(&b, n * sizeof(float)));  // void** overload
  HT_CALL(hipMemcpy(a, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HT_CALL(hipMemcpy(b, a, n * sizeof(float), hipMemcpyDeviceToDevice));
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, static_cast<float*>(b), 2.0f, n);
  HT_CALL(hipGetLastError());
  HT_CALL(hipMemcpy(back.data(), b, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(back[i] == host[i] * 2.0f);
  // hipMemcpyDefault: direction from the pointers (unified addressing).
  std::vector<float> again(n, 0.0f);
  HT_CALL(hipMemcpy(again.data(), a, n * sizeof(float), hipMemcpyDefault));
  HT_EXPECT(std::memcmp(again.data(), host.data(), n * sizeof(float)) == 0);
  HT_CALL(hipFree(a));
  HT_CALL(hipFree(b));
  return hiptest::report(name, ok);
}

bool test_memset() {
  const char* name = "hipMemset and hipMemsetAsync";
  bool ok = true;
  const size_t bytes = 4096;
  unsigned char* d = nullptr;
  HT_REQUIRE(hipMalloc(&d, bytes));
  HT_CALL(hipMemset(d, 0xAB, bytes));
  std::vector<unsigned char> h(bytes, 0);
  HT_CALL(hipMemcpy(h.data(), d, bytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < bytes; ++i) HT_EXPECT(h[i] == 0xAB);
  hipStream_t s;
  HT_REQUIRE(hipStreamCreate(&s));
  HT_CALL(hipMemsetAsync(d + 100, 0x11, 200, s));
  HT_CALL(hipMemcpyAsync(h.data(), d, bytes, hipMemcpyDeviceToHost, s));
  HT_CALL(hipStreamSynchronize(s));
  for (size_t i = 0; i < bytes; ++i) {
    HT_EXPECT(h[i] == ((i >= 100 && i < 300) ? 0x11 : 0xAB));
  }
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(d));
  return hiptest::report(name, ok);
}

bool test_pinned_async() {
  const char* name = "hipHostMalloc pinned memory with hipMemcpyAsync";
  bool ok = true;
  const int n = 1 << 16;
  float* pinned = nullptr;
  void* mapped = nullptr;
  HT_REQUIRE(hipHostMalloc(&pinned, n * sizeof(float)));  // default flags
  HT_REQUIRE(hipHostMalloc(&mapped, 256, hipHostMallocMapped | hipHostMallocPortable));
  for (int i = 0; i < n; ++i) pinned[i] = static_cast<float>(i % 97);
  float* d = nullptr;
  HT_REQUIRE(hipMalloc(&d, n * sizeof(float)));
  hipStream_t s;
  HT_REQUIRE(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  HT_CALL(hipMemcpyAsync(d, pinned, n * sizeof(float), hipMemcpyHostToDevice, s));
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, s, d, 3.0f, n);
  HT_CALL(hipMemcpyAsync(pinned, d, n * sizeof(float), hipMemcpyDeviceToHost, s));
  HT_CALL(hipStreamSynchronize(s));
  for (int i = 0; i < n; ++i) HT_EXPECT(pinned[i] == 3.0f * static_cast<float>(i % 97));
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(d));
  HT_CALL(hipHostFree(pinned));
  HT_CALL(hipHostFree(mapped));
  return hiptest::report(name, ok);
}

bool test_managed() {
  const char* name = "hipMallocManaged (+hipMemPrefetchAsync where supported)";
  bool ok = true;
  const int n = 4096;  // small: managed memory stays well below the card's size
  int* m = nullptr;
  HT_REQUIRE(hipMallocManaged(&m, n * sizeof(int)));
  int device = 0, concurrent = 0;
  HT_CALL(hipGetDevice(&device));
  HT_CALL(hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, device));
  if (concurrent) HT_CALL(hipMemPrefetchAsync(m, n * sizeof(int), device, 0));
  hipLaunchKernelGGL(fill_index, dim3((n + 255) / 256), dim3(256), 0, 0, m, n);
  HT_CALL(hipGetLastError());
  if (concurrent) HT_CALL(hipMemPrefetchAsync(m, n * sizeof(int), hipCpuDeviceId, 0));
  HT_CALL(hipDeviceSynchronize());
  for (int i = 0; i < n; ++i) HT_EXPECT(m[i] == 3 * i);
  HT_CALL(hipFree(m));
  return hiptest::report(name, ok);
}

bool test_symbols() {
  const char* name = "hipMemcpyToSymbol/FromSymbol(+Async), hipGetSymbolAddress";
  bool ok = true;
  const float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  float table[8];
  for (int i = 0; i < 8; ++i) table[i] = 100.0f * i;
  const int zero = 0;
  HT_CALL(hipMemcpyToSymbol(HIP_SYMBOL(c_coeffs), coeffs, sizeof(coeffs)));
  HT_CALL(hipMemcpyToSymbol(HIP_SYMBOL(d_counter), &zero, sizeof(zero), 0, hipMemcpyHostToDevice));
  hipStream_t s;
  HT_REQUIRE(hipStreamCreate(&s));
  // The table in two halves, the second at an offset.
  HT_CALL(hipMemcpyToSymbolAsync(HIP_SYMBOL(d_table), table, 4 * sizeof(float), 0,
                                 hipMemcpyHostToDevice, s));
  HT_CALL(hipMemcpyToSymbolAsync(HIP_SYMBOL(d_table), table + 4, 4 * sizeof(float),
                                 4 * sizeof(float), hipMemcpyHostToDevice, s));
  HT_CALL(hipStreamSynchronize(s));
  const int n = 64;
  float* out = nullptr;
  HT_REQUIRE(hipMalloc(&out, n * sizeof(float)));
  hipLaunchKernelGGL(apply_symbols, dim3(1), dim3(n), 0, 0, out, n);
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == coeffs[i % 4] + table[i % 8]);
  int counter = -1;
  HT_CALL(hipMemcpyFromSymbol(&counter, HIP_SYMBOL(d_counter), sizeof(int)));
  HT_EXPECT(counter == 7);
  float tail[2] = {0.0f, 0.0f};
  HT_CALL(hipMemcpyFromSymbolAsync(tail, HIP_SYMBOL(d_table), sizeof(tail), 6 * sizeof(float),
                                   hipMemcpyDeviceToHost, s));
  HT_CALL(hipStreamSynchronize(s));
  HT_EXPECT(tail[0] == 600.0f && tail[1] == 700.0f);
  // The symbol's device address reads the same data as the symbol.
  void* addr = nullptr;
  HT_CALL(hipGetSymbolAddress(&addr, HIP_SYMBOL(d_table)));
  float third = 0.0f;
  HT_CALL(hipMemcpy(&third, static_cast<float*>(addr) + 3, sizeof(float), hipMemcpyDeviceToHost));
  HT_EXPECT(third == 300.0f);
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(out));
  return hiptest::report(name, ok);
}

bool test_mem_get_info() {
  const char* name = "hipMemGetInfo";
  bool ok = true;
  size_t free_bytes = 0, total_bytes = 0;
  HT_CALL(hipMemGetInfo(&free_bytes, &total_bytes));
  HT_EXPECT(total_bytes > 0);
  HT_EXPECT(free_bytes <= total_bytes);
  return hiptest::report(name, ok);
}

bool test_module_style_copies() {
  const char* name = "hipMemcpyHtoD / DtoD / DtoH";
  bool ok = true;
  int host[16], back[16];
  for (int i = 0; i < 16; ++i) host[i] = i * i;
  hipDeviceptr_t a, b;
  HT_REQUIRE(hipMalloc(&a, sizeof(host)));
  HT_REQUIRE(hipMalloc(&b, sizeof(host)));
  HT_CALL(hipMemcpyHtoD(a, host, sizeof(host)));
  HT_CALL(hipMemcpyDtoD(b, a, sizeof(host)));
  HT_CALL(hipMemcpyDtoH(back, b, sizeof(back)));
  HT_EXPECT(std::memcmp(host, back, sizeof(host)) == 0);
  HT_CALL(hipFree(a));
  HT_CALL(hipFree(b));
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("memory");
  test_malloc_memcpy_roundtrip();
  test_memset();
  test_pinned_async();
  test_managed();
  test_symbols();
  test_mem_get_info();
  test_module_style_copies();
  return hiptest::finish("memory");
}
