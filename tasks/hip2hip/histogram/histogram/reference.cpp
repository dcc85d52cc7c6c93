#include <cmath>
#include <vector>

#include "arena_hip.h"

// counts[b] = number of i with x[i] == b. OpenMP threads count their share of
// x into integer bins of their own, summed afterwards: exact, so the counts
// do not depend on the number of threads.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* counts = outputs[0].data;
  const int64_t n = inputs[0].numel;
  const int64_t bins = outputs[0].numel;
  std::vector<int64_t> total(static_cast<size_t>(bins), 0);
  bool bad = false;
#pragma omp parallel
  {
    std::vector<int64_t> own(static_cast<size_t>(bins), 0);
    bool own_bad = false;
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < n; ++i) {
      const double v = x[i];
      if (!(v >= 0.0 && v < static_cast<double>(bins)) || v != std::floor(v)) {
        own_bad = true;
        continue;
      }
      ++own[static_cast<int64_t>(v)];
    }
#pragma omp critical
    {
      bad = bad || own_bad;
      for (int64_t b = 0; b < bins; ++b) total[b] += own[b];
    }
  }
  if (bad) return 1;
  for (int64_t b = 0; b < bins; ++b) counts[b] = static_cast<double>(total[b]);
  return 0;
}
