#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "arena_hip.h"

// For every token r: p = softmax(logits[r, :]); ids[r, :] = the k experts with
// the largest logits, by descending logit, equal logits by increasing expert
// index; weights[r, j] = p[ids[r, j]] / sum_j' p[ids[r, j']]. In double.
// OpenMP spreads the tokens, each thread with its own p and order.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* logits = inputs[0].data;
  double* weights = outputs[0].data;
  double* ids = outputs[1].data;
  const int64_t tokens = inputs[0].shape[0];
  const int64_t experts = inputs[0].shape[1];
  const int64_t k = outputs[0].shape[1];
  if (k < 1 || k > experts) return 1;
#pragma omp parallel
  {
    std::vector<double> p(static_cast<size_t>(experts));
    std::vector<int64_t> order(static_cast<size_t>(experts));
#pragma omp for schedule(static)
    for (int64_t r = 0; r < tokens; ++r) {
      const double* x = logits + r * experts;
      double m = -INFINITY;
      for (int64_t e = 0; e < experts; ++e) m = std::max(m, x[e]);
      double sum = 0.0;
      for (int64_t e = 0; e < experts; ++e) {
        p[e] = std::exp(x[e] - m);
        sum += p[e];
      }
      for (int64_t e = 0; e < experts; ++e) p[e] /= sum;

      std::iota(order.begin(), order.end(), int64_t{0});
      std::partial_sort(order.begin(), order.begin() + k, order.end(),
                        [x](int64_t a, int64_t b) { return x[a] > x[b] || (x[a] == x[b] && a < b); });
      double psum = 0.0;
      for (int64_t j = 0; j < k; ++j) psum += p[order[j]];
      for (int64_t j = 0; j < k; ++j) {
        weights[r * k + j] = p[order[j]] / psum;
        ids[r * k + j] = static_cast<double>(order[j]);
      }
    }
  }
  return 0;
}
