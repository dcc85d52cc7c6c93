#include "arena_hip.h"

// out[b, :] = sum over j of weight[indices[b, j], :], in double.
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
  for (int64_t b = 0; b < bags; ++b) {
    double* o = out + b * dim;
    for (int64_t d = 0; d < dim; ++d) o[d] = 0.0;
    for (int64_t j = 0; j < bag_size; ++j) {
      const double v = indices[b * bag_size + j];
      if (!(v >= 0.0 && v < static_cast<double>(vocab))) return 1;  // never drawn
      const double* w = weight + static_cast<int64_t>(v) * dim;
      for (int64_t d = 0; d < dim; ++d) o[d] += w[d];
    }
  }
  return 0;
}
