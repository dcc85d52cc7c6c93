// Streams and events: creation with and without flags, ordering across
// streams through hipStreamWaitEvent, timing with hipEventElapsedTime,
// queries and synchronization.
#include <hip/hip_runtime.h>

#include <vector>

#include "hip_test_util.h"

// A dependent chain of multiply-adds: its run time grows with `iters`.
__global__ void busy_fill(float* x, int n, int iters, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 1.0f;
  for (int k = 0; k < iters; ++k) v = v * 0.999999f + 1e-6f;
  x[i] = value + (v > 1e30f ? 1.0f : 0.0f);  // keeps the loop; adds 0
}

__global__ void copy_plus_one(const float* src, float* dst, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1.0f;
}

namespace {

bool test_stream_wait_event() {
  const char* name = "hipStreamWaitEvent orders work across streams";
  bool ok = true;
  const int n = 1 << 14;
  float *a = nullptr, *b = nullptr;
  HT_REQUIRE(hipMalloc(&a, n * sizeof(float)));
  HT_REQUIRE(hipMalloc(&b, n * sizeof(float)));
  HT_CALL(hipMemset(a, 0, n * sizeof(float)));
  hipStream_t producer, consumer;
  HT_REQUIRE(hipStreamCreateWithFlags(&producer, hipStreamNonBlocking));
  HT_REQUIRE(hipStreamCreateWithFlags(&consumer, hipStreamNonBlocking));
  hipEvent_t ready;
  HT_REQUIRE(hipEventCreateWithFlags(&ready, hipEventDisableTiming));
  // The producer is slow; without the wait the consumer would read zeros.
  hipLaunchKernelGGL(busy_fill, dim3(n / 256), dim3(256), 0, producer, a, n, 200000, 41.0f);
  HT_CALL(hipEventRecord(ready, producer));
  HT_CALL(hipStreamWaitEvent(consumer, ready, 0));
  hipLaunchKernelGGL(copy_plus_one, dim3(n / 256), dim3(256), 0, consumer, a, b, n);
  HT_CALL(hipGetLastError());
  HT_CALL(hipStreamSynchronize(consumer));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), b, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 42.0f);
  HT_CALL(hipEventSynchronize(ready));
  HT_CALL(hipEventQuery(ready));        // hipSuccess once complete
  HT_CALL(hipStreamQuery(producer));    // idle streams report hipSuccess
  HT_CALL(hipStreamQuery(consumer));
  HT_CALL(hipEventDestroy(ready));
  HT_CALL(hipStreamDestroy(producer));
  HT_CALL(hipStreamDestroy(consumer));
  HT_CALL(hipFree(a));
  HT_CALL(hipFree(b));
  return hiptest::report(name, ok);
}

bool test_event_timing() {
  const char* name = "hipEventElapsedTime measures a kernel";
  bool ok = true;
  const int n = 1 << 14;
  float* x = nullptr;
  HT_REQUIRE(hipMalloc(&x, n * sizeof(float)));
  hipStream_t s;
  HT_REQUIRE(hipStreamCreate(&s));
  hipEvent_t start, stop_short, stop_long;
  HT_REQUIRE(hipEventCreate(&start));
  HT_REQUIRE(hipEventCreate(&stop_short));
  HT_REQUIRE(hipEventCreateWithFlags(&stop_long, hipEventDefault));
  HT_CALL(hipEventRecord(start, s));
  hipLaunchKernelGGL(busy_fill, dim3(n / 256), dim3(256), 0, s, x, n, 1000, 1.0f);
  HT_CALL(hipEventRecord(stop_short, s));
  hipLaunchKernelGGL(busy_fill, dim3(n / 256), dim3(256), 0, s, x, n, 400000, 1.0f);
  HT_CALL(hipEventRecord(stop_long, s));
  HT_CALL(hipEventSynchronize(stop_long));
  float short_ms = -1.0f, long_ms = -1.0f;
  HT_CALL(hipEventElapsedTime(&short_ms, start, stop_short));
  HT_CALL(hipEventElapsedTime(&long_ms, start, stop_long));
  std::printf("  short kernel %.3f ms, short+long %.3f ms\n", short_ms, long_ms);
  HT_EXPECT(short_ms >= 0.0f);
  HT_EXPECT(long_ms > short_ms);
  HT_EXPECT(long_ms < 10000.0f);
  HT_CALL(hipEventDestroy(start));
  HT_CALL(hipEventDestroy(stop_short));
  HT_CALL(hipEventDestroy(stop_long));
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(x));
  return hiptest::report(name, ok);
}

bool test_default_stream_and_device_sync() {
  const char* name = "default stream (0), hipStreamPerThread, hipEventRecord default, hipDeviceSynchronize";
  bool ok = true;
  const int n = 1024;
  float* x = nullptr;
  HT_REQUIRE(hipMalloc(&x, n * sizeof(float)));
  hipEvent_t done;
  HT_REQUIRE(hipEventCreate(&done));
  hipLaunchKernelGGL(busy_fill, dim3(n / 256), dim3(256), 0, 0, x, n, 10, 5.0f);
  HT_CALL(hipEventRecord(done));  // the default stream
  HT_CALL(hipDeviceSynchronize());
  HT_CALL(hipEventQuery(done));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), x, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 5.0f);
  // The per-thread default stream.
  hipLaunchKernelGGL(busy_fill, dim3(n / 256), dim3(256), 0, hipStreamPerThread, x, n, 10, 6.0f);
  HT_CALL(hipStreamSynchronize(hipStreamPerThread));
  HT_CALL(hipMemcpy(h.data(), x, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 6.0f);
  HT_CALL(hipEventDestroy(done));
  HT_CALL(hipFree(x));
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("streams_events");
  test_stream_wait_event();
  test_event_timing();
  test_default_stream_and_device_sync();
  return hiptest::finish("streams_events");
}
