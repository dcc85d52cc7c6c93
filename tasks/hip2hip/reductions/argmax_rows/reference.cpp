#include "arena_hip.h"

// out[r] = the smallest c with x[r, c] == max_c' x[r, c'].
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
    int64_t best = 0;
    for (int64_t c = 1; c < cols; ++c) {
      if (xr[c] > xr[best]) best = c;
    }
    out[r] = static_cast<double>(best);
  }
  return 0;
}
