#include <algorithm>
#include <cmath>

#include "arena_hip.h"

// loss[r] = log(sum_c exp(logits[r, c])) - logits[r, target[r]], in double.
// The targets are checked first; then OpenMP spreads the rows.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* logits = inputs[0].data;
  const double* target = inputs[1].data;
  double* loss = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t vocab = inputs[0].shape[1];
  for (int64_t r = 0; r < rows; ++r) {
    const double t = target[r];
    if (!(t >= 0.0 && t < static_cast<double>(vocab))) return 1;
  }
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = logits + r * vocab;
    double m = -INFINITY;
    for (int64_t c = 0; c < vocab; ++c) m = std::max(m, xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < vocab; ++c) sum += std::exp(xr[c] - m);
    loss[r] = m + std::log(sum) - xr[static_cast<int64_t>(target[r])];
  }
  return 0;
}
