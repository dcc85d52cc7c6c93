#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

#define BLOCK 128

// y[n] = sum over k of x[k] * (nibble(w, n, k) - 8) * scales[n, k / group_size].
// One thread per output row walks its packed row in order: for each group it
// loads the group's scale once, then unpacks one byte (two weights) at a time.
__global__ void int4_dequant_gemv_kernel(const __half* x, const unsigned char* w,
                                         const __half* scales, float* y, long long N,
                                         long long K, int group_size) {
  const long long n = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= N) return;
  const long long groups = K / group_size;
  const unsigned char* wr = w + n * (K / 2);
  const __half* sr = scales + n * groups;
  float acc = 0.0f;
  for (long long g = 0; g < groups; ++g) {
    const float s = __half2float(sr[g]);
    const long long k0 = g * group_size;
    for (long long k = k0; k < k0 + group_size; k += 2) {
      const unsigned int b = wr[k / 2];
      const float w0 = static_cast<float>(static_cast<int>(b & 0xFu) - 8) * s;
      const float w1 = static_cast<float>(static_cast<int>(b >> 4) - 8) * s;
      acc += __half2float(x[k]) * w0;
      acc += __half2float(x[k + 1]) * w1;
    }
  }
  y[n] = acc;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long K = inputs[0].shape[0];
  const long long N = inputs[1].shape[0];
  const int group_size = static_cast<int>(arena_param(params, num_params, "group_size", 128));
  if (K % 2 != 0 || group_size < 2 || group_size % 2 != 0 || K % group_size != 0) return 1;
  if (inputs[2].shape[1] != K / group_size) return 1;
  if (N == 0) return 0;
  const unsigned grid = static_cast<unsigned>((N + BLOCK - 1) / BLOCK);
  hipLaunchKernelGGL(int4_dequant_gemv_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                     static_cast<const __half*>(inputs[0].data),
                     static_cast<const unsigned char*>(inputs[1].data),
                     static_cast<const __half*>(inputs[2].data),
                     static_cast<float*>(outputs[0].data), N, K, group_size);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
