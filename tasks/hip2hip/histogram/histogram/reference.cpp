#include <cmath>

#include "arena_hip.h"

// counts[b] = number of i with x[i] == b.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* counts = outputs[0].data;
  const int64_t n = inputs[0].numel;
  const int64_t bins = outputs[0].numel;
  for (int64_t b = 0; b < bins; ++b) counts[b] = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    if (!(v >= 0.0 && v < static_cast<double>(bins)) || v != std::floor(v)) return 1;
    counts[static_cast<int64_t>(v)] += 1.0;
  }
  return 0;
}
