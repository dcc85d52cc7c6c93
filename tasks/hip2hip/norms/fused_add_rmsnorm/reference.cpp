#include <cmath>

#include "arena_hip.h"

// residual_out[r, c] = x[r, c] + residual[r, c] = s[r, c];
// y[r, c] = s[r, c] / sqrt(mean_c'(s[r, c']^2) + eps) * w[c]; in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* residual = inputs[1].data;
  const double* w = inputs[2].data;
  double* residual_out = outputs[0].data;
  double* y = outputs[1].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  const double eps = arena_param(params, num_params, "eps", 1e-6);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    const double* rr = residual + r * cols;
    double* sr = residual_out + r * cols;
    double* yr = y + r * cols;
    double ss = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      sr[c] = xr[c] + rr[c];
      ss += sr[c] * sr[c];
    }
    const double rrms = 1.0 / std::sqrt(ss / static_cast<double>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = sr[c] * rrms * w[c];
  }
  return 0;
}
