// Works between requests: from its first call, a thread launches the
// subject's own kernel on the last call's buffers 2 ms after each call has
// returned (its runner then runs none of the subject's code), as a thread
// would that watched the memory it was lent and computed a round's
// outputs before the round's clock started. The judge stops every runner
// while it writes a round's inputs; the launch itself is named by the
// runner's observer: work between requests.
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

static void Launch(const void* a, const void* b, void* y, long long n, hipStream_t stream) {
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(a), static_cast<const __half*>(b), static_cast<__half*>(y), n);
}

static std::atomic<long long> calls{0};
static std::atomic<const void*> last_a{nullptr}, last_b{nullptr};
static std::atomic<void*> last_y{nullptr};
static std::atomic<long long> last_n{0};

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  last_a = in[0].data;
  last_b = in[1].data;
  last_y = out[0].data;
  last_n = in[0].numel;
  if (calls++ == 0) {
    std::thread([] {
      hipStream_t s;
      hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
      long long seen = 0;
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const long long now = calls.load();
        if (now == seen) continue;
        seen = now;
        Launch(last_a.load(), last_b.load(), last_y.load(), last_n.load(), s);
        hipStreamSynchronize(s);
      }
    }).detach();
  }
  Launch(in[0].data, in[1].data, out[0].data, in[0].numel, stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
