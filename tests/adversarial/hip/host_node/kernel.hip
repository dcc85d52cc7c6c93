// Host code inside the timed work, only when captured: computes honestly
// with its own kernel, but when its stream is being captured (the judge's
// timed rounds replay a graph) it adds a host function to the graph, a
// hook that runs on the host in every timed round, unseen by the checked
// calls, which are not captured. Here it only counts the rounds; a real
// cheat would do its work there. The graph is inspected when captured.
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <atomic>

#include "arena_hip.h"

static std::atomic<long> replays{0};

static void Hook(void*) { replays.fetch_add(1); }

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
  const long long n = in[0].numel;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  if (hipStreamIsCapturing(stream, &status) == hipSuccess && status == hipStreamCaptureStatusActive) {
    if (hipLaunchHostFunc(stream, Hook, nullptr) != hipSuccess) return 1;
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
