#include <algorithm>
#include <functional>
#include <vector>

#include "arena_hip.h"

// out[r, :] = the k largest values of x[r, :], in descending order. OpenMP
// spreads the rows, each thread with its own copy buffer.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* x = inputs[0].data;
  double* out = outputs[0].data;
  const int64_t rows = inputs[0].shape[0];
  const int64_t cols = inputs[0].shape[1];
  const int64_t k = outputs[0].shape[1];
  if (k < 1 || k > cols) return 1;
#pragma omp parallel
  {
    std::vector<double> row(static_cast<size_t>(cols));
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
      std::copy(x + r * cols, x + (r + 1) * cols, row.begin());
      std::partial_sort(row.begin(), row.begin() + k, row.end(), std::greater<double>());
      std::copy(row.begin(), row.begin() + k, out + r * k);
    }
  }
  return 0;
}
