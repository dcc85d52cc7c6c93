#include <cmath>

#include "arena_hip.h"

// Ball query as in point-cloud networks. The inputs are fp32 values widened
// to double, so narrowing them back is exact; the squared distance and the
// comparison are then done in float exactly as the task defines them
// (d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx)) < (float)(radius * radius)), so
// that the kernel and the reference take the same decision even for points
// on the boundary of the ball. The queries (b, m) are independent and
// spread by OpenMP.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* xyz = inputs[0].data;
  const double* new_xyz = inputs[1].data;
  double* idx = outputs[0].data;
  const int64_t B = inputs[0].shape[0];
  const int64_t N = inputs[0].shape[1];
  const int64_t M = inputs[1].shape[1];
  const int64_t nsample = outputs[0].shape[2];
  const double radius = arena_param(params, num_params, "radius", 0.1);
  const float r2 = static_cast<float>(radius * radius);
#pragma omp parallel for schedule(static)
  for (int64_t bm = 0; bm < B * M; ++bm) {
    const double* p = xyz + (bm / M) * N * 3;
    const double* c = new_xyz + bm * 3;
    const float cx = static_cast<float>(c[0]);
    const float cy = static_cast<float>(c[1]);
    const float cz = static_cast<float>(c[2]);
    double* out = idx + bm * nsample;
    int64_t cnt = 0;
    for (int64_t k = 0; k < N && cnt < nsample; ++k) {
      const float dx = static_cast<float>(p[k * 3 + 0]) - cx;
      const float dy = static_cast<float>(p[k * 3 + 1]) - cy;
      const float dz = static_cast<float>(p[k * 3 + 2]) - cz;
      const float xx = dx * dx;
      const float d2 = std::fmaf(dz, dz, std::fmaf(dy, dy, xx));
      if (d2 < r2) {
        if (cnt == 0) {
          for (int64_t l = 0; l < nsample; ++l) out[l] = static_cast<double>(k);
        }
        out[cnt++] = static_cast<double>(k);
      }
    }
    if (cnt == 0) {
      for (int64_t l = 0; l < nsample; ++l) out[l] = 0.0;
    }
  }
  return 0;
}
