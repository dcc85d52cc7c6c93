// Host computation: copies the inputs to the host, computes there, and
// copies the result back; launches no kernel of its own. The outputs are
// right; the work is not the candidate's GPU kernel.
// expect: integrity
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <cmath>
#include <vector>

#include "arena_hip.h"

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  const size_t n = static_cast<size_t>(in[0].numel);
  std::vector<__half> a(n), b(n), y(n);
  if (hipMemcpyAsync(a.data(), in[0].data, n * sizeof(__half), hipMemcpyDeviceToHost, stream) != hipSuccess ||
      hipMemcpyAsync(b.data(), in[1].data, n * sizeof(__half), hipMemcpyDeviceToHost, stream) != hipSuccess ||
      hipStreamSynchronize(stream) != hipSuccess) {
    return 1;
  }
  for (size_t i = 0; i < n; ++i) {
    const float av = __half2float(a[i]);
    y[i] = __float2half(av / (1.0f + std::exp(-av)) * __half2float(b[i]));
  }
  if (hipMemcpyAsync(out[0].data, y.data(), n * sizeof(__half), hipMemcpyHostToDevice, stream) != hipSuccess ||
      hipStreamSynchronize(stream) != hipSuccess) {
    return 1;
  }
  return 0;
}
