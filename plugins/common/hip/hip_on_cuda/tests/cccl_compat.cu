// NVIDIA only: hip_on_cuda's renaming macros (warpSize, __shfl*, __ballot,
// __any, __all) must not break CUDA's own libraries included after
// hip/hip_runtime.h: CUB, libcu++ (whose internals use names like __any and
// __all), Thrust and cooperative groups. Compiled, not run.
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include <cuda/std/tuple>
#include <cuda/std/variant>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

namespace cg = cooperative_groups;

__global__ void mixed(int* out, float* f) {
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename WarpReduce::TempStorage tmp;
  int v = WarpReduce(tmp).Sum(static_cast<int>(threadIdx.x));
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  v += tile.shfl_xor(v, 1) + __shfl_xor(v, 2) + static_cast<int>(__ballot(v > 0)) + __any(v) +
       __all(v);
  v += static_cast<int>(cg::coalesced_threads().size());
  f[0] = __shfl(__half2float(__shfl_xor(__float2half(1.0f), 1)), 0);
  out[threadIdx.x] = v + warpSize;
}

int sum_ten_ones() {
  thrust::device_vector<int> d(10, 1);
  return thrust::reduce(d.begin(), d.end());
}
