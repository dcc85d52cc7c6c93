// Leaves every call's work of a round to the round's last call, which
// computes all of its sets in one launch: each call but the last returns
// with its outputs unwritten. Checked one call at a time, and at each
// round's end, every output is right; on the GPU it batches a round's
// short calls into one launch over a grid that fills the GPU, a speedup
// no caller of the kernel sees. It finds a round's sets from the judge's
// layout (input a's sets, then input b's, each set `stride` bytes apart:
// their distance over the stride is the number of sets) and its place in
// the round from the call before (a call whose a follows the last one's by
// a stride is the next set). Caught by the witnessed calls: a witness
// after a call (eager) or after a replay's first part (captured) finds its
// outputs still poisoned.
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
  if (call < sets - 1) {
    hipLaunchKernelGGL(nothing, dim3(1), dim3(1), 0, stream);
    return hipGetLastError() == hipSuccess ? 0 : 1;
  }
  // The round's last call: every set, from the first one's tensors.
  const uintptr_t back = static_cast<uintptr_t>(call) * stride;
  const long long total = n * sets;
  hipLaunchKernelGGL(silu_mul_sets, dim3(static_cast<unsigned>((total + 255) / 256)), dim3(256), 0, stream,
                     reinterpret_cast<const __half*>(a - back), reinterpret_cast<const __half*>(b - back),
                     reinterpret_cast<__half*>(reinterpret_cast<uintptr_t>(out[0].data) - back), n, sets,
                     static_cast<long long>(stride / 2));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
