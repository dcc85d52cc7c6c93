#include <algorithm>

#include "arena_hip.h"

// y[r, c] = max(x[r, c] + bias[c], 0) * scale, in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* bias = inputs[1].data;
  double* y = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  const double scale = arena_param(params, num_params, "scale", 1.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      y[r * cols + c] = std::max(x[r * cols + c] + bias[c], 0.0) * scale;
    }
  }
  return 0;
}
