// Slows the other subject down: from its first call, a thread keeps a
// one-block spinning kernel (20 ms each) running on a stream of its own, so
// that its own kernels run beside it while the other subject's process
// waits for its time slices. The judge stops this runner while the other
// subject is timed and waits for the GPU to be free of its work first, so
// the baseline is timed alone; and the thread launches while its runner
// runs none of the subject's code (between requests), which the runner's
// observer names: work between requests.
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
__global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static bool started = false;
  if (!started) {
    started = true;
    std::thread([] {
      hipStream_t s;
      hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
      for (;;) {
        hipLaunchKernelGGL(spin, dim3(1), dim3(32), 0, s, 40000000LL);
        hipStreamSynchronize(s);
      }
    }).detach();
  }
  return Launch(in, out, stream);
}
