#include "arena_hip.h"

// out[s] = sum of values[start(s), start(s) + lengths[s]) in double, with
// start(s) = lengths[0] + ... + lengths[s - 1] (segments packed from the
// front of values; entries past the last segment are unused).
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* values = inputs[0].data;
  const double* lengths = inputs[1].data;
  double* out = outputs[0].data;
  const int64_t capacity = inputs[0].numel;
  const int64_t segments = inputs[1].numel;
  int64_t start = 0;
  for (int64_t s = 0; s < segments; ++s) {
    const int64_t len = static_cast<int64_t>(lengths[s]);
    if (len < 0 || start + len > capacity) return 1;
    double sum = 0.0;
    for (int64_t i = start; i < start + len; ++i) sum += values[i];
    out[s] = sum;
    start += len;
  }
  return 0;
}
