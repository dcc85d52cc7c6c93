#include <algorithm>

#include "arena_hip.h"

// 2-D max pooling of an NCHW tensor: window k x k, stride s, no padding.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* out = outputs[0].data;
  const int64_t planes = inputs[0].shape[0] * inputs[0].shape[1];
  const int64_t H = inputs[0].shape[2];
  const int64_t W = inputs[0].shape[3];
  const int64_t k = static_cast<int64_t>(arena_param(params, num_params, "k", 2));
  const int64_t s = static_cast<int64_t>(arena_param(params, num_params, "s", 2));
  const int64_t OH = (H - k) / s + 1;
  const int64_t OW = (W - k) / s + 1;
  if (k < 1 || s < 1 || H < k || W < k) return 1;
  if (OH != outputs[0].shape[2] || OW != outputs[0].shape[3]) return 1;
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < planes; ++p) {
    const double* xp = x + p * H * W;
    double* op = out + p * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      for (int64_t ow = 0; ow < OW; ++ow) {
        double m = xp[(oh * s) * W + ow * s];
        for (int64_t i = 0; i < k; ++i) {
          for (int64_t j = 0; j < k; ++j) m = std::max(m, xp[(oh * s + i) * W + ow * s + j]);
        }
        op[oh * OW + ow] = m;
      }
    }
  }
  return 0;
}
