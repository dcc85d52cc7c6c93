// Occupancy and kernel attributes (hipOccupancyMaxActiveBlocksPerMultiprocessor,
// hipOccupancyMaxPotentialBlockSize, hipFuncGetAttributes) and graphs
// (stream capture, hipGraphInstantiate / WithFlags, hipGraphLaunch replays,
// hipGraphExecDestroy, hipGraphDestroy).
#include <hip/hip_runtime.h>

#include <vector>

#include "hip_test_util.h"

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void times_two(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// Uses a lot of static shared memory, so fewer blocks fit on a multiprocessor.
__global__ void shared_heavy(float* x) {
  __shared__ float tile[8192];  // 32 KiB
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

namespace {

bool test_occupancy() {
  const char* name = "hipOccupancyMaxActiveBlocksPerMultiprocessor / MaxPotentialBlockSize";
  bool ok = true;
  hipDeviceProp_t prop;
  HT_REQUIRE(hipGetDeviceProperties(&prop, 0));
  int light = 0, heavy = 0, via_void = 0;
  HT_CALL(hipOccupancyMaxActiveBlocksPerMultiprocessor(&light, add_one, 256, 0));
  HT_CALL(hipOccupancyMaxActiveBlocksPerMultiprocessor(&heavy, shared_heavy, 256, 0));
  HT_CALL(hipOccupancyMaxActiveBlocksPerMultiprocessor(
      &via_void, reinterpret_cast<const void*>(add_one), 256, 0));
  int grid = 0, block = 0;
  HT_CALL(hipOccupancyMaxPotentialBlockSize(&grid, &block, add_one, 0, 0));
  int limited_grid = 0, limited_block = 0;
  HT_CALL(hipOccupancyMaxPotentialBlockSize(&limited_grid, &limited_block, add_one, 0, 64));
  std::printf("  add_one: %d blocks of 256 per SM; shared_heavy: %d; best block %d, grid %d; "
              "limited to 64: block %d\n",
              light, heavy, block, grid, limited_block);
  HT_EXPECT(light >= 1 && light * 256 <= prop.maxThreadsPerMultiProcessor);
  HT_EXPECT(via_void == light);
  HT_EXPECT(heavy >= 1 && heavy <= light);
  HT_EXPECT(static_cast<size_t>(heavy) * 32 * 1024 <= prop.maxSharedMemoryPerMultiProcessor);
  HT_EXPECT(block >= warpSize && block <= prop.maxThreadsPerBlock);
  HT_EXPECT(grid >= prop.multiProcessorCount);
  HT_EXPECT(limited_block >= 1 && limited_block <= 64);
  return hiptest::report(name, ok);
}

bool test_func_attributes() {
  const char* name = "hipFuncGetAttributes";
  bool ok = true;
  hipFuncAttributes light{}, heavy{};
  HT_CALL(hipFuncGetAttributes(&light, reinterpret_cast<const void*>(add_one)));
  HT_CALL(hipFuncGetAttributes(&heavy, reinterpret_cast<const void*>(shared_heavy)));
  std::printf("  add_one: %d registers, max %d threads; shared_heavy: %zu bytes static shared\n",
              light.numRegs, light.maxThreadsPerBlock, heavy.sharedSizeBytes);
  HT_EXPECT(light.numRegs > 0);
  HT_EXPECT(light.maxThreadsPerBlock > 0);
  HT_EXPECT(heavy.sharedSizeBytes >= 32 * 1024);
#if defined(__HIP_PLATFORM_NVIDIA__)
  // hip_on_cuda also takes the kernel itself (HIP 5.2 wants a const void*).
  hipFuncAttributes direct{};
  HT_CALL(hipFuncGetAttributes(&direct, add_one));
  HT_EXPECT(direct.numRegs == light.numRegs);
#endif
  return hiptest::report(name, ok);
}

bool test_graph_capture_replay() {
  const char* name = "stream capture into a graph, instantiate, replay";
  bool ok = true;
  const int n = 4096;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 10);
  float* x = nullptr;
  HT_REQUIRE(hipMalloc(&x, n * sizeof(float)));
  HT_CALL(hipMemcpy(x, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipStream_t s;
  HT_REQUIRE(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  hipGraph_t graph = nullptr;
  HT_REQUIRE(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  hipLaunchKernelGGL(add_one, dim3(n / 256), dim3(256), 0, s, x, n);
  hipLaunchKernelGGL(times_two, dim3(n / 256), dim3(256), 0, s, x, n);
  HT_REQUIRE(hipStreamEndCapture(s, &graph));
  // Capturing only records: x is unchanged so far.
  std::vector<float> r(n);
  HT_CALL(hipMemcpy(r.data(), x, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(r[i] == h[i]);

  hipGraphExec_t exec = nullptr;
  hipGraphNode_t error_node = nullptr;
  char log[256] = "untouched";
  HT_REQUIRE(hipGraphInstantiate(&exec, graph, &error_node, log, sizeof(log)));
  for (int k = 0; k < 3; ++k) HT_CALL(hipGraphLaunch(exec, s));
  HT_CALL(hipStreamSynchronize(s));
  HT_CALL(hipMemcpy(r.data(), x, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float v = h[i];
    for (int k = 0; k < 3; ++k) v = (v + 1.0f) * 2.0f;
    HT_EXPECT(r[i] == v);
    h[i] = v;
  }
  // A second executable graph from the same graph, through the flags form.
  hipGraphExec_t exec2 = nullptr;
  HT_REQUIRE(hipGraphInstantiateWithFlags(&exec2, graph, 0));
  HT_CALL(hipGraphLaunch(exec2, s));
  HT_CALL(hipStreamSynchronize(s));
  HT_CALL(hipMemcpy(r.data(), x, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(r[i] == (h[i] + 1.0f) * 2.0f);

  HT_CALL(hipGraphExecDestroy(exec));
  HT_CALL(hipGraphExecDestroy(exec2));
  HT_CALL(hipGraphDestroy(graph));
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(x));
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("occupancy_graph");
  test_occupancy();
  test_func_attributes();
  test_graph_capture_replay();
  return hiptest::finish("occupancy_graph");
}
