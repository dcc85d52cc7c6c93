#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 128

static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");

// Segment s covers values[start(s), start(s) + lengths[s]) with
// start(s) = lengths[0] + ... + lengths[s - 1]. The starts come from a
// multi-level exclusive scan: level 0 scans lengths within blocks of BLOCK,
// level l + 1 scans the block totals of level l, and
// start(s) = sum over l of excl_l[s / BLOCK^l].

#define MAX_LEVELS 8

struct ScanLevels {
  const int* excl[MAX_LEVELS];
  int count;
};

// Exclusive scan of in[0, n) within each block of BLOCK elements (Hillis-
// Steele in shared memory, two __syncthreads per step); the block total goes
// to sums[blockIdx.x].
__global__ void block_scan_kernel(const int* in, int* excl, int* sums, long long n) {
  __shared__ int buf[BLOCK];
  const int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK + t;
  const int v = i < n ? in[i] : 0;
  buf[t] = v;
  __syncthreads();
  for (int off = 1; off < BLOCK; off <<= 1) {
    const int a = t >= off ? buf[t - off] : 0;
    __syncthreads();
    buf[t] += a;
    __syncthreads();
  }
  if (i < n) excl[i] = buf[t] - v;
  if (t == BLOCK - 1) sums[blockIdx.x] = buf[t];
}

// One block per segment: find the start, sum the segment with a strided loop
// and a shared-memory tree.
__global__ void segment_sum_kernel(const float* values, const int* lengths, ScanLevels levels,
                                   float* out) {
  __shared__ float red[BLOCK];
  __shared__ long long start_shared;
  const int t = threadIdx.x;
  const long long s = blockIdx.x;
  if (t == 0) {
    long long start = 0;
    long long idx = s;
    for (int l = 0; l < levels.count; ++l) {
      start += levels.excl[l][idx];
      idx /= BLOCK;
    }
    start_shared = start;
  }
  __syncthreads();
  const float* seg = values + start_shared;
  const int len = lengths[s];
  float sum = 0.0f;
  for (int c = t; c < len; c += BLOCK) sum += seg[c];
  red[t] = sum;
  __syncthreads();
  for (int h = BLOCK / 2; h > 0; h >>= 1) {
    if (t < h) red[t] += red[t + h];
    __syncthreads();
  }
  if (t == 0) out[s] = red[0];
}

// Scratch for the scan, kept between calls and grown when needed (never
// freed while in use: hipFree waits for the device).
static int* g_scratch = nullptr;
static size_t g_scratch_ints = 0;

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const float* values = static_cast<const float*>(inputs[0].data);
  const int* lengths = static_cast<const int*>(inputs[1].data);
  float* out = static_cast<float*>(outputs[0].data);
  const long long segments = inputs[1].numel;
  if (segments == 0) return 0;

  // Level sizes: n_0 = segments, n_{l+1} = ceil(n_l / BLOCK), until one block.
  long long sizes[MAX_LEVELS];
  int count = 0;
  size_t need = 0;
  for (long long n = segments;; n = (n + BLOCK - 1) / BLOCK) {
    if (count == MAX_LEVELS) return 1;
    sizes[count++] = n;
    need += static_cast<size_t>(n) + static_cast<size_t>((n + BLOCK - 1) / BLOCK);
    if (n <= BLOCK) break;
  }
  if (need > g_scratch_ints) {
    if (g_scratch != nullptr && hipFree(g_scratch) != hipSuccess) return 1;
    g_scratch = nullptr;
    g_scratch_ints = 0;
    if (hipMalloc(&g_scratch, need * sizeof(int)) != hipSuccess) return 1;
    g_scratch_ints = need;
  }

  ScanLevels levels;
  levels.count = count;
  const int* in = lengths;
  int* p = g_scratch;
  for (int l = 0; l < count; ++l) {
    const long long n = sizes[l];
    const long long blocks = (n + BLOCK - 1) / BLOCK;
    int* excl = p;
    int* sums = p + n;
    p += n + blocks;
    hipLaunchKernelGGL(block_scan_kernel, dim3(static_cast<unsigned>(blocks)), dim3(BLOCK), 0,
                       stream, in, excl, sums, n);
    levels.excl[l] = excl;
    in = sums;
  }
  hipLaunchKernelGGL(segment_sum_kernel, dim3(static_cast<unsigned>(segments)), dim3(BLOCK), 0,
                     stream, values, lengths, levels, out);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
