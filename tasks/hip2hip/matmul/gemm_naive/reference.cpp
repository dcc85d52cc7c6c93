#include <vector>

#include "arena_hip.h"

// C = A @ B in double (row-major; i-k-j loop order for the cache).
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* A = inputs[0].data;
  const double* B = inputs[1].data;
  double* C = outputs[0].data;
  const int64_t M = inputs[0].shape[0];
  const int64_t K = inputs[0].shape[1];
  const int64_t N = inputs[1].shape[1];
#pragma omp parallel for schedule(static)
  for (int64_t m = 0; m < M; ++m) {
    double* c = C + m * N;
    for (int64_t n = 0; n < N; ++n) c[n] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double a = A[m * K + k];
      const double* b = B + k * N;
      for (int64_t n = 0; n < N; ++n) c[n] += a * b[n];
    }
  }
  return 0;
}
