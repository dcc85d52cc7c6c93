#include <vector>

#include "arena_hip.h"

// out[s] = sum of values[start(s), start(s) + lengths[s]) in double, with
// start(s) = lengths[0] + ... + lengths[s - 1] (segments packed from the
// front of values; entries past the last segment are unused). The starts are
// found (and checked) first, in integers; then OpenMP spreads the segments.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* values = inputs[0].data;
  const double* lengths = inputs[1].data;
  double* out = outputs[0].data;
  const int64_t capacity = inputs[0].numel;
  const int64_t segments = inputs[1].numel;
  std::vector<int64_t> starts(static_cast<size_t>(segments) + 1);
  starts[0] = 0;
  for (int64_t s = 0; s < segments; ++s) {
    const int64_t len = static_cast<int64_t>(lengths[s]);
    if (len < 0 || starts[s] + len > capacity) return 1;
    starts[s + 1] = starts[s] + len;
  }
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < segments; ++s) {
    double sum = 0.0;
    for (int64_t i = starts[s]; i < starts[s + 1]; ++i) sum += values[i];
    out[s] = sum;
  }
  return 0;
}
