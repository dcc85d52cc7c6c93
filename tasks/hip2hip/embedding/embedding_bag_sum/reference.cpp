#include "arena_hip.h"

// out[b, :] = sum over j of weight[indices[b, j], :], in double. The indices
// are checked first; then OpenMP spreads the bags.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* weight = inputs[0].data;
  const double* indices = inputs[1].data;
  double* out = outputs[0].data;
  const int64_t vocab = inputs[0].shape[0];
  const int64_t dim = inputs[0].shape[1];
  const int64_t bags = inputs[1].shape[0];
  const int64_t bag_size = inputs[1].shape[1];
  for (int64_t i = 0; i < bags * bag_size; ++i) {
    const double v = indices[i];
    if (!(v >= 0.0 && v < static_cast<double>(vocab))) return 1;  // never drawn
  }
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < bags; ++b) {
    double* o = out + b * dim;
    for (int64_t d = 0; d < dim; ++d) o[d] = 0.0;
    for (int64_t j = 0; j < bag_size; ++j) {
      const double* w = weight + static_cast<int64_t>(indices[b * bag_size + j]) * dim;
      for (int64_t d = 0; d < dim; ++d) o[d] += w[d];
    }
  }
  return 0;
}
