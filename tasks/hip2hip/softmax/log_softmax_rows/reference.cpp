#include <algorithm>
#include <cmath>

#include "arena_hip.h"

// y[r, c] = x[r, c] - log(sum_c' exp(x[r, c'])), in double (stable form).
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* y = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double m = -INFINITY;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(xr[c] - m);
    const double shift = m + std::log(sum);
    for (int64_t c = 0; c < cols; ++c) yr[c] = xr[c] - shift;
  }
  return 0;
}
