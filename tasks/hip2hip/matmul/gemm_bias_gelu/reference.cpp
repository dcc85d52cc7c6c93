#include <cmath>

#include "arena_hip.h"

// C = gelu_tanh(A @ B + bias) in double (row-major; i-k-j loop order for the
// cache), gelu_tanh(v) = 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))).
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* A = inputs[0].data;
  const double* B = inputs[1].data;
  const double* bias = inputs[2].data;
  double* C = outputs[0].data;
  const int64_t M = inputs[0].shape[0];
  const int64_t K = inputs[0].shape[1];
  const int64_t N = inputs[1].shape[1];
  const double k0 = std::sqrt(2.0 / M_PI);
#pragma omp parallel for schedule(static)
  for (int64_t m = 0; m < M; ++m) {
    double* c = C + m * N;
    for (int64_t n = 0; n < N; ++n) c[n] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double a = A[m * K + k];
      const double* b = B + k * N;
      for (int64_t n = 0; n < N; ++n) c[n] += a * b[n];
    }
    for (int64_t n = 0; n < N; ++n) {
      const double v = c[n] + bias[n];
      c[n] = 0.5 * v * (1.0 + std::tanh(k0 * (v + 0.044715 * v * v * v)));
    }
  }
  return 0;
}
