#include <cmath>

#include "arena_hip.h"

// y[r, c] = gelu_tanh(x[r, c] + bias[c]) in double.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* bias = inputs[1].data;
  double* y = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  const double k0 = std::sqrt(2.0 / M_PI);
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    for (int64_t c = 0; c < cols; ++c) {
      const double v = xr[c] + bias[c];
      yr[c] = 0.5 * v * (1.0 + std::tanh(k0 * (v + 0.044715 * v * v * v)));
    }
  }
  return 0;
}
