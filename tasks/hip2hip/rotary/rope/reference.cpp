#include "arena_hip.h"

// Neox-style rotary embedding, in double. With half = head_dim / 2 and
// p = positions[t]:
//   out[t, h, i]        = q[t, h, i] * cos[p, i] - q[t, h, i + half] * sin[p, i]
//   out[t, h, i + half] = q[t, h, i + half] * cos[p, i] + q[t, h, i] * sin[p, i]
// The positions are checked first; then OpenMP spreads the tokens.
extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
                               ArenaHostTensor* outputs, int num_outputs,
                               const ArenaParam* params, int num_params) {
  const double* q = inputs[0].data;
  const double* positions = inputs[1].data;
  const double* cos_table = inputs[2].data;
  const double* sin_table = inputs[3].data;
  double* out = outputs[0].data;
  const int64_t tokens = inputs[0].shape[0];
  const int64_t heads = inputs[0].shape[1];
  const int64_t head_dim = inputs[0].shape[2];
  const int64_t max_pos = inputs[2].shape[0];
  const int64_t half = head_dim / 2;
  if (head_dim % 2 != 0) return 1;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t p = static_cast<int64_t>(positions[t]);
    if (p < 0 || p >= max_pos) return 1;
  }
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t p = static_cast<int64_t>(positions[t]);
    const double* c = cos_table + p * half;
    const double* s = sin_table + p * half;
    for (int64_t h = 0; h < heads; ++h) {
      const double* x = q + (t * heads + h) * head_dim;
      double* o = out + (t * heads + h) * head_dim;
      for (int64_t i = 0; i < half; ++i) {
        o[i] = x[i] * c[i] - x[i + half] * s[i];
        o[i + half] = x[i + half] * c[i] + x[i] * s[i];
      }
    }
  }
  return 0;
}
