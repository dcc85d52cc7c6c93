#include "arena_hip.h"

// y = A @ x in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* A = inputs[0].data;
  const double* x = inputs[1].data;
  double* y = outputs[0].data;
  const int64_t M = inputs[0].shape[0];
  const int64_t N = inputs[0].shape[1];
#pragma omp parallel for schedule(static)
  for (int64_t m = 0; m < M; ++m) {
    const double* a = A + m * N;
    double acc = 0.0;
    for (int64_t n = 0; n < N; ++n) acc += a[n] * x[n];
    y[m] = acc;
  }
  return 0;
}
