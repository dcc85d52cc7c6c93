#include <algorithm>
#include <cmath>
#include <vector>

#include "arena_hip.h"

// o[b, h, :] = sum_{j < lens[b]} softmax_j(scale * q[b, h, :] . k[b, h, j, :]) v[b, h, j, :],
// in double. The lengths are checked first; then OpenMP spreads the (b, h)
// pairs, each thread with its own p.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* q = inputs[0].data;
  const double* k = inputs[1].data;
  const double* v = inputs[2].data;
  const double* lens = inputs[3].data;
  double* o = outputs[0].data;
  const int64_t batch = inputs[1].shape[0];
  const int64_t heads = inputs[1].shape[1];
  const int64_t seq = inputs[1].shape[2];
  const int64_t d = inputs[1].shape[3];
  const double scale = arena_param(params, num_params, "scale", 1.0 / std::sqrt(static_cast<double>(d)));
  for (int64_t b = 0; b < batch; ++b) {
    const double lv = lens[b];
    if (!(lv >= 1.0 && lv <= static_cast<double>(seq))) return 1;  // never drawn
  }
#pragma omp parallel
  {
    std::vector<double> p(static_cast<size_t>(seq));
#pragma omp for schedule(static)
    for (int64_t bh = 0; bh < batch * heads; ++bh) {
      const int64_t len = static_cast<int64_t>(lens[bh / heads]);
      const double* qr = q + bh * d;
      const double* kb = k + bh * seq * d;
      const double* vb = v + bh * seq * d;
      double m = -INFINITY;
      for (int64_t j = 0; j < len; ++j) {
        double s = 0.0;
        for (int64_t e = 0; e < d; ++e) s += qr[e] * kb[j * d + e];
        p[j] = s * scale;
        m = std::max(m, p[j]);
      }
      double l = 0.0;
      for (int64_t j = 0; j < len; ++j) {
        p[j] = std::exp(p[j] - m);
        l += p[j];
      }
      double* orow = o + bh * d;
      std::fill(orow, orow + d, 0.0);
      for (int64_t j = 0; j < len; ++j) {
        const double w = p[j] / l;
        for (int64_t e = 0; e < d; ++e) orow[e] += w * vb[j * d + e];
      }
    }
  }
  return 0;
}
