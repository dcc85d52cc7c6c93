#include <cstdint>

#include "arena_hip.h"

// y[n] = sum_k x[k] * (q[n, k] - 8) * scales[n, k / group_size], in double,
// where q[n, 2j] is the low nibble of w[n, j] and q[n, 2j + 1] its high
// nibble.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* w = inputs[1].data;
  const double* scales = inputs[2].data;
  double* y = outputs[0].data;
  const int64_t K = inputs[0].shape[0];
  const int64_t N = inputs[1].shape[0];
  const int64_t group_size = static_cast<int64_t>(arena_param(params, num_params, "group_size", 128));
  if (K % 2 != 0 || group_size < 2 || group_size % 2 != 0 || K % group_size != 0) return 1;
  const int64_t groups = K / group_size;
#pragma omp parallel for schedule(static)
  for (int64_t n = 0; n < N; ++n) {
    double acc = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const int byte = static_cast<int>(w[n * (K / 2) + k / 2]);
      const int nibble = (k % 2 == 0) ? (byte & 0xF) : ((byte >> 4) & 0xF);
      const double wk = static_cast<double>(nibble - 8) * scales[n * groups + k / group_size];
      acc += x[k] * wk;
    }
    y[n] = acc;
  }
  return 0;
}
