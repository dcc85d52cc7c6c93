#include <hip/hip_runtime.h>

#include "arena_hip.h"

#define BLOCK 256

// Inclusive scan, computed in place in y by a hierarchy of levels.
//
// Level L is the sequence of elements of y at positions (t + 1) * stride - 1,
// t < count, with stride = BLOCK^L (level 0 is y itself). The last element of
// each BLOCK-sized block of level L is an element of level L + 1.
//
//   1. Upwards, every level is scanned block by block in place (after level 0
//      is scanned, each block's last element holds the block's total).
//   2. Downwards, every element of level L that is not its block's last gets
//      the (by then final) last element of the previous block added; the
//      block-last elements are final already, as elements of level L + 1.

// Copies x into y while scanning level 0 (src == x), or scans level L in place
// (src == y), one BLOCK-sized block per thread block (Hillis-Steele in shared
// memory).
__global__ void block_scan_kernel(const int* src, int* y, long long count, long long stride) {
  __shared__ int buf[BLOCK];
  const int t = threadIdx.x;
  const long long e = static_cast<long long>(blockIdx.x) * BLOCK + t;
  const long long pos = (e + 1) * stride - 1;
  buf[t] = e < count ? src[pos] : 0;
  __syncthreads();
  for (int off = 1; off < BLOCK; off <<= 1) {
    const int v = t >= off ? buf[t - off] : 0;
    __syncthreads();
    buf[t] += v;
    __syncthreads();
  }
  if (e < count) y[pos] = buf[t];
}

// Adds the total of all previous blocks to the elements of level L that are
// not the last of their block. Block b of level L (b >= 1) needs the element
// at level position b * BLOCK - 1; thread block j handles level block j + 1.
__global__ void add_offsets_kernel(int* y, long long count, long long stride) {
  const long long b = static_cast<long long>(blockIdx.x) + 1;
  const long long e = b * BLOCK + threadIdx.x;
  if (threadIdx.x == BLOCK - 1 || e >= count) return;
  const int offset = y[b * BLOCK * stride - 1];
  y[(e + 1) * stride - 1] += offset;
}

extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs, ArenaTensor* outputs,
                         int num_outputs, const ArenaParam* params, int num_params,
                         hipStream_t stream) {
  const long long n = inputs[0].numel;
  const int* x = static_cast<const int*>(inputs[0].data);
  int* y = static_cast<int*>(outputs[0].data);
  if (n == 0) return 0;

  long long counts[64];
  long long strides[64];
  int levels = 0;
  long long count = n;
  long long stride = 1;
  for (;;) {
    const unsigned grid = static_cast<unsigned>((count + BLOCK - 1) / BLOCK);
    hipLaunchKernelGGL(block_scan_kernel, dim3(grid), dim3(BLOCK), 0, stream,
                       levels == 0 ? x : static_cast<const int*>(y), y, count, stride);
    counts[levels] = count;
    strides[levels] = stride;
    ++levels;
    if (count <= BLOCK) break;
    count /= BLOCK;
    stride *= BLOCK;
  }
  for (int L = levels - 2; L >= 0; --L) {
    const long long blocks = (counts[L] + BLOCK - 1) / BLOCK;
    hipLaunchKernelGGL(add_offsets_kernel, dim3(static_cast<unsigned>(blocks - 1)), dim3(BLOCK),
                       0, stream, y, counts[L], strides[L]);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
