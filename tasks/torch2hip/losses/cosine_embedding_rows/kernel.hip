// Cosine distance between matching rows of two fp32 [rows, cols] matrices,
// as 1 - F.cosine_similarity(a, b, dim=1, eps=1e-8):
//   out[r] = 1 - sum_c a[r, c] b[r, c] / (max(||a[r]||, eps) * max(||b[r]||, eps)).
// A straightforward implementation: one block per row (a grid-stride loop
// over rows); every thread accumulates the dot product and both squared
// norms over a strided slice of the row with scalar loads, then three
// shared-memory tree reductions combine them.
#include <hip/hip_runtime.h>
#include <math.h>

#include "arena_hip.h"

#define BLOCK 256

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// The most blocks launched; more rows are covered by a grid-stride loop.
#define MAX_GRID (1 << 20)

// PyTorch's default eps of cosine_similarity, applied to each norm.
#define COS_EPS 1e-8f

// The sum of v over the block (blockDim.x == BLOCK), by a shared-memory tree.
__device__ float block_reduce_sum(float v, float* scratch) {
  const int t = threadIdx.x;
  scratch[t] = v;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();  // scratch is rewritten by the next call
  return total;
}

__global__ void cosine_distance_kernel(const float* a, const float* b, float* out,
                                       long long rows, long long cols) {
  __shared__ float scratch[BLOCK];
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* ar = a + r * cols;
    const float* br = b + r * cols;
    float dot = 0.0f, aa = 0.0f, bb = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += BLOCK) {
      const float x = ar[c];
      const float y = br[c];
      dot += x * y;
      aa += x * x;
      bb += y * y;
    }
    dot = block_reduce_sum(dot, scratch);
    aa = block_reduce_sum(aa, scratch);
    bb = block_reduce_sum(bb, scratch);
    if (threadIdx.x == 0) {
      const float na = fmaxf(sqrtf(aa), COS_EPS);
      const float nb = fmaxf(sqrtf(bb), COS_EPS);
      out[r] = 1.0f - dot / (na * nb);
    }
  }
}

// inputs: a [rows, cols], b [rows, cols] (fp32); outputs: out [rows] (fp32).
extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long rows = inputs[0].shape[0];
  const long long cols = inputs[0].shape[1];
  if (rows == 0) return 0;
  const long long blocks = rows < MAX_GRID ? rows : MAX_GRID;
  hipLaunchKernelGGL(cosine_distance_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                     stream, static_cast<const float*>(inputs[0].data),
                     static_cast<const float*>(inputs[1].data),
                     static_cast<float*>(outputs[0].data), rows, cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
