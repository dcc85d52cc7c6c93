#include <algorithm>
#include <cmath>

#include "arena_hip.h"

// Symmetric row-wise int8 quantization, in double:
// scale[r] = max_c |x[r, c]| / 127 (1 if the row is all zeros),
// q[r, c] = clamp(round_half_away_from_zero(x[r, c] / scale[r]), -127, 127).
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* q = outputs[0].data;
  double* scale = outputs[1].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double m = 0.0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, std::fabs(xr[c]));
    const double s = m > 0.0 ? m / 127.0 : 1.0;
    scale[r] = s;
    for (int64_t c = 0; c < cols; ++c) {
      q[r * cols + c] = std::min(127.0, std::max(-127.0, std::round(xr[c] / s)));
    }
  }
  return 0;
}
