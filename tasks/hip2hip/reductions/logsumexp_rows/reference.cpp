#include <algorithm>
#include <cmath>

#include "arena_hip.h"

// out[r] = log(sum_c exp(x[r, c])) = m + log(sum_c exp(x[r, c] - m)) with
// m = max_c x[r, c], in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* out = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  if (cols < 1) return 1;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double m = xr[0];
    for (int64_t c = 1; c < cols; ++c) m = std::max(m, xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(xr[c] - m);
    out[r] = m + std::log(sum);
  }
  return 0;
}
