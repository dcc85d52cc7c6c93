// Does a whole round's work in its first call, which computes every set
// in one launch (their inputs are all written before the round starts);
// the later calls return at once. Each call has done its work when it
// returns, so a witness of a call alone passes it; checked one call at a
// time, and at each round's end, every output is right, and on the GPU a
// round's short calls are batched into one launch, a speedup no caller of
// the kernel sees. It finds a round's sets and its place in the round as
// deferred_to_last_call does. Caught by the witnessed calls: once a
// witness is taken, the judge reads the later sets' outputs at places
// drawn in secret, which must still hold the poison written before the
// round (their calls have not run).
// expect: integrity
#include <cstdint>

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void silu_mul_sets(const __half* a, const __half* b, __half* y, long long n, long long sets,
                              long long set_elements) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n * sets) return;
  const long long at = (i / n) * set_elements + i % n;
  const float av = __half2float(a[at]);
  y[at] = __float2half(av / (1.0f + expf(-av)) * __half2float(b[at]));
}

__global__ void nothing() {}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static uintptr_t last_a = 0;
  static long long call = 0;  // in the round
  const long long n = in[0].numel;
  const auto a = reinterpret_cast<uintptr_t>(in[0].data);
  const auto b = reinterpret_cast<uintptr_t>(in[1].data);
  const uintptr_t stride = (static_cast<uintptr_t>(n) * 2 + 255) / 256 * 256;
  const long long sets = b > a && (b - a) % stride == 0 ? static_cast<long long>((b - a) / stride) : 1;
  call = a == last_a + stride ? call + 1 : 0;
  last_a = a;
  if (sets < 2 || sets > 65536 || call >= sets) {
    hipLaunchKernelGGL(silu_mul_sets, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                       static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                       static_cast<__half*>(out[0].data), n, 1LL, n);
    return hipGetLastError() == hipSuccess ? 0 : 1;
  }
  if (call > 0) {
    hipLaunchKernelGGL(nothing, dim3(1), dim3(1), 0, stream);
    return hipGetLastError() == hipSuccess ? 0 : 1;
  }
  // The round's first call: every set.
  const long long total = n * sets;
  hipLaunchKernelGGL(silu_mul_sets, dim3(static_cast<unsigned>((total + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n, sets, static_cast<long long>(stride / 2));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
