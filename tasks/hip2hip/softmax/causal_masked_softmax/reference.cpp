#include <algorithm>
#include <cmath>

#include "arena_hip.h"

// For row r, query i = r % q_len sees the keys c <= i + k_len - q_len:
// y[r, c] = softmax over the visible keys of x[r, :] at c, and 0 for the
// masked keys. In double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* y = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t k_len = inputs[0].shape[1];
  const int64_t q_len = static_cast<int64_t>(arena_param(params, num_params, "q_len", 0));
  if (q_len < 1 || q_len > k_len || rows % q_len != 0) return 1;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t i = r % q_len;
    const int64_t visible = i + k_len - q_len + 1;
    const double* xr = x + r * k_len;
    double* yr = y + r * k_len;
    double m = -INFINITY;
    for (int64_t c = 0; c < visible; ++c) m = std::max(m, xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < visible; ++c) {
      yr[c] = std::exp(xr[c] - m);
      sum += yr[c];
    }
    const double inv = 1.0 / sum;
    for (int64_t c = 0; c < visible; ++c) yr[c] *= inv;
    for (int64_t c = visible; c < k_len; ++c) yr[c] = 0.0;
  }
  return 0;
}
