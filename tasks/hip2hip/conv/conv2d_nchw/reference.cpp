#include <algorithm>

#include "arena_hip.h"

// 'same' conv2d, stride 1, zero padding R / 2 on every side, in double:
// y[n, k, oh, ow] = sum over c, r, s of x[n, c, oh + r - R/2, ow + s - R/2] * w[k, c, r, s].
// Loops are ordered so the innermost runs over a contiguous output row
// segment without bounds checks. Output planes (n, k) are independent and
// spread by OpenMP; each keeps the serial order of its sums.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  const double* w = inputs[1].data;
  double* y = outputs[0].data;
  const int64_t N = inputs[0].shape[0], C = inputs[0].shape[1];
  const int64_t H = inputs[0].shape[2], W = inputs[0].shape[3];
  const int64_t K = inputs[1].shape[0], R = inputs[1].shape[2];
  if (inputs[1].shape[1] != C || inputs[1].shape[3] != R || R % 2 == 0) return 1;
  const int64_t pad = R / 2;
  std::fill(y, y + outputs[0].numel, 0.0);
#pragma omp parallel for schedule(static)
  for (int64_t nk = 0; nk < N * K; ++nk) {
    const int64_t n = nk / K, k = nk % K;
    double* yp = y + nk * H * W;
    for (int64_t c = 0; c < C; ++c) {
      const double* xp = x + (n * C + c) * H * W;
      for (int64_t r = 0; r < R; ++r) {
        const int64_t oh_lo = std::max<int64_t>(0, pad - r);
        const int64_t oh_hi = std::min<int64_t>(H, H + pad - r);
        for (int64_t s = 0; s < R; ++s) {
          const double wv = w[((k * C + c) * R + r) * R + s];
          const int64_t ow_lo = std::max<int64_t>(0, pad - s);
          const int64_t ow_hi = std::min<int64_t>(W, W + pad - s);
          for (int64_t oh = oh_lo; oh < oh_hi; ++oh) {
            double* yrow = yp + oh * W;
            const double* xrow = xp + (oh + r - pad) * W;
            for (int64_t ow = ow_lo; ow < ow_hi; ++ow) yrow[ow] += wv * xrow[ow + s - pad];
          }
        }
      }
    }
  }
  return 0;
}
