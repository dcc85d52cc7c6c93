#include <cmath>

#include "arena_hip.h"

// y[r, :] = (x[r, :] - mean) / sqrt(var + eps) * w + b, with the biased
// variance, in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* w = inputs[1].data;
  const double* b = inputs[2].data;
  double* y = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  const double eps = arena_param(params, num_params, "eps", 1e-5);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double mean = 0.0;
    for (int64_t c = 0; c < cols; ++c) mean += xr[c];
    mean /= static_cast<double>(cols);
    double var = 0.0;
    for (int64_t c = 0; c < cols; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    var /= static_cast<double>(cols);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = (xr[c] - mean) * rstd * w[c] + b[c];
  }
  return 0;
}
