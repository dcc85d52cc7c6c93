#include <algorithm>
#include <cmath>
#include <vector>

#include "arena_hip.h"

// O[b, i, :] = sum_j softmax_j(Q[b, i, :] . K[b, j, :] / sqrt(d)) V[b, j, :], in double.
// Rows (b, i) are independent: OpenMP spreads them, each thread with its own p.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* q = inputs[0].data;
  const double* k = inputs[1].data;
  const double* v = inputs[2].data;
  double* o = outputs[0].data;
  const int64_t batch = inputs[0].shape[0];
  const int64_t seq = inputs[0].shape[1];
  const int64_t d = inputs[0].shape[2];
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
#pragma omp parallel
  {
    std::vector<double> p(static_cast<size_t>(seq));
#pragma omp for schedule(static)
    for (int64_t bi = 0; bi < batch * seq; ++bi) {
      const int64_t b = bi / seq;
      const double* kb = k + b * seq * d;
      const double* vb = v + b * seq * d;
      const double* qr = q + bi * d;
      double m = -INFINITY;
      for (int64_t j = 0; j < seq; ++j) {
        double s = 0.0;
        for (int64_t e = 0; e < d; ++e) s += qr[e] * kb[j * d + e];
        p[j] = s * scale;
        m = std::max(m, p[j]);
      }
      double l = 0.0;
      for (int64_t j = 0; j < seq; ++j) {
        p[j] = std::exp(p[j] - m);
        l += p[j];
      }
      double* orow = o + bi * d;
      std::fill(orow, orow + d, 0.0);
      for (int64_t j = 0; j < seq; ++j) {
        const double w = p[j] / l;
        for (int64_t e = 0; e < d; ++e) orow[e] += w * vb[j * d + e];
      }
    }
  }
  return 0;
}
