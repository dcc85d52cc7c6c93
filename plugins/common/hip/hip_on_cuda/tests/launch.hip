// Launching: hipLaunchKernelGGL (arguments, none, template kernels through
// HIP_KERNEL_NAME, dynamic shared memory, streams), <<<>>>, hipLaunchKernel,
// dim3 and the coordinate builtins and their hip*Idx_* names,
// __launch_bounds__, __shared__ with __syncthreads, HIP_DYNAMIC_SHARED,
// hipFuncSetAttribute for large dynamic shared memory, launch errors through
// hipGetLastError / hipPeekAtLastError.
#include <hip/hip_runtime.h>

#include <vector>

#include "hip_test_util.h"

__device__ int g_flag;

__host__ __device__ inline int mix(int a, int b) { return a * 31 + b; }

__global__ void set_flag() { g_flag = 1234; }

__global__ void coords(int* out) {
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  const int block_linear = (bz * gridDim.y + by) * gridDim.x + bx;
  const int thread_linear = (tz * blockDim.y + ty) * blockDim.x + tx;
  const int threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  const int gid = block_linear * threads_per_block + thread_linear;
  // The same through HIP's macro names.
  const int hip_block = (hipBlockIdx_z * hipGridDim_y + hipBlockIdx_y) * hipGridDim_x + hipBlockIdx_x;
  const int hip_thread = (hipThreadIdx_z * hipBlockDim_y + hipThreadIdx_y) * hipBlockDim_x + hipThreadIdx_x;
  out[gid] = (hip_block == block_linear && hip_thread == thread_linear) ? mix(block_linear, thread_linear) : -1;
}

template <typename T, int kScale>
__global__ void scaled_copy(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * static_cast<T>(kScale);
}

__global__ void __launch_bounds__(256) reverse_block(const int* in, int* out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// Dynamic shared memory: each block sums its slice through shared memory.
__global__ void dyn_shared_sum(const float* in, float* out, int per_block) {
  HIP_DYNAMIC_SHARED(float, buffer)
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) {
    buffer[i] = in[blockIdx.x * per_block + i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int i = 0; i < per_block; ++i) s += buffer[i];
    out[blockIdx.x] = s;
  }
}

__global__ void add_arrays(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

namespace {

bool test_no_argument_kernel() {
  const char* name = "hipLaunchKernelGGL with no kernel arguments";
  bool ok = true;
  const int zero = 0;
  HT_CALL(hipMemcpyToSymbol(HIP_SYMBOL(g_flag), &zero, sizeof(int)));
  hipLaunchKernelGGL(set_flag, dim3(1), dim3(1), 0, 0);
  HT_CALL(hipGetLastError());
  int flag = 0;
  HT_CALL(hipMemcpyFromSymbol(&flag, HIP_SYMBOL(g_flag), sizeof(int)));
  HT_EXPECT(flag == 1234);
  return hiptest::report(name, ok);
}

bool test_coordinates() {
  const char* name = "dim3 3-D grids and blocks, builtins and hip*Idx_* macros";
  bool ok = true;
  const dim3 grid(3, 2, 2), block(8, 4, 2);
  const int blocks = 3 * 2 * 2, per_block = 8 * 4 * 2, n = blocks * per_block;
  int* d = nullptr;
  HT_REQUIRE(hipMalloc(&d, n * sizeof(int)));
  hipLaunchKernelGGL(coords, grid, block, 0, 0, d);
  std::vector<int> h(n);
  HT_CALL(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < per_block; ++t) HT_EXPECT(h[b * per_block + t] == mix(b, t));
  }
  HT_CALL(hipFree(d));
  return hiptest::report(name, ok);
}

bool test_template_kernel_and_chevrons() {
  const char* name = "HIP_KERNEL_NAME template kernel, <<<>>> launch on a stream";
  bool ok = true;
  const int n = 500;
  std::vector<double> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.25 * i;
  double *in = nullptr, *out = nullptr, *out2 = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(double)));
  HT_REQUIRE(hipMalloc(&out, n * sizeof(double)));
  HT_REQUIRE(hipMalloc(&out2, n * sizeof(double)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(double), hipMemcpyHostToDevice));
  hipStream_t s;
  HT_REQUIRE(hipStreamCreate(&s));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scaled_copy<double, 3>), dim3((n + 127) / 128), dim3(128), 0, s,
                     in, out, n);
  scaled_copy<double, 5><<<dim3((n + 127) / 128), dim3(128), 0, s>>>(in, out2, n);
  HT_CALL(hipGetLastError());
  HT_CALL(hipStreamSynchronize(s));
  std::vector<double> r(n), r2(n);
  HT_CALL(hipMemcpy(r.data(), out, n * sizeof(double), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(r2.data(), out2, n * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(r[i] == 3.0 * h[i] && r2[i] == 5.0 * h[i]);
  HT_CALL(hipStreamDestroy(s));
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  HT_CALL(hipFree(out2));
  return hiptest::report(name, ok);
}

bool test_shared_and_launch_bounds() {
  const char* name = "__shared__ + __syncthreads in a __launch_bounds__ kernel";
  bool ok = true;
  const int blocks = 4, n = blocks * 256;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i;
  int *in = nullptr, *out = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(int)));
  HT_REQUIRE(hipMalloc(&out, n * sizeof(int)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reverse_block, dim3(blocks), dim3(256), 0, 0, in, out);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < 256; ++t) HT_EXPECT(h[b * 256 + t] == b * 256 + 255 - t);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  return hiptest::report(name, ok);
}

// per_block floats of dynamic shared memory per block.
bool run_dyn_shared(int per_block, bool* ok_out) {
  bool ok = true;
  const int blocks = 8;
  std::vector<float> h(blocks * per_block);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 5);
  float *in = nullptr, *out = nullptr;
  if (!hiptest::call_ok(hipMalloc(&in, h.size() * sizeof(float)), "hipMalloc", __FILE__, __LINE__) ||
      !hiptest::call_ok(hipMalloc(&out, blocks * sizeof(float)), "hipMalloc", __FILE__, __LINE__)) {
    *ok_out = false;
    return false;
  }
  HT_CALL(hipMemcpy(in, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(dyn_shared_sum, dim3(blocks), dim3(128), per_block * sizeof(float), 0, in, out,
                     per_block);
  HT_CALL(hipGetLastError());
  std::vector<float> sums(blocks);
  HT_CALL(hipMemcpy(sums.data(), out, blocks * sizeof(float), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    float expect = 0.0f;
    for (int i = 0; i < per_block; ++i) expect += h[b * per_block + i];
    HT_EXPECT(sums[b] == expect);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  *ok_out = ok;
  return ok;
}

bool test_dynamic_shared() {
  const char* name = "HIP_DYNAMIC_SHARED with the launch's shared-memory size";
  bool ok = true;
  run_dyn_shared(1024, &ok);  // 4 KiB
  return hiptest::report(name, ok);
}

bool test_func_set_attribute_large_shared() {
  const char* name = "hipFuncSetAttribute(MaxDynamicSharedMemorySize) for 64 KiB";
  bool ok = true;
  const int bytes = 64 * 1024;  // over the 48 KiB default, under every recent GPU's limit
  HT_CALL(hipFuncSetAttribute(reinterpret_cast<const void*>(dyn_shared_sum),
                              hipFuncAttributeMaxDynamicSharedMemorySize, bytes));
#if defined(__HIP_PLATFORM_NVIDIA__)
  // hip_on_cuda also takes the kernel itself (HIP 5.2 wants a const void*).
  HT_CALL(hipFuncSetAttribute(dyn_shared_sum, hipFuncAttributeMaxDynamicSharedMemorySize, bytes));
#endif
  if (ok) run_dyn_shared(bytes / static_cast<int>(sizeof(float)), &ok);
  return hiptest::report(name, ok);
}

bool test_hip_launch_kernel() {
  const char* name = "hipLaunchKernel with an argument array";
  bool ok = true;
  const int n = 300;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i);
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  HT_REQUIRE(hipMalloc(&da, n * sizeof(float)));
  HT_REQUIRE(hipMalloc(&db, n * sizeof(float)));
  HT_REQUIRE(hipMalloc(&dc, n * sizeof(float)));
  HT_CALL(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HT_CALL(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  int count = n;
  void* args[] = {&da, &db, &dc, &count};
  HT_CALL(hipLaunchKernel(reinterpret_cast<const void*>(add_arrays), dim3((n + 63) / 64), dim3(64),
                          args, 0, 0));
  HT_CALL(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(c[i] == 3.0f * i);
  HT_CALL(hipFree(da));
  HT_CALL(hipFree(db));
  HT_CALL(hipFree(dc));
  return hiptest::report(name, ok);
}

bool test_launch_error_reporting() {
  const char* name = "a bad launch is reported by hipPeekAtLastError then hipGetLastError";
  bool ok = true;
  HT_CALL(hipGetLastError());  // start clean
  int props_max = 0, device = 0;
  HT_CALL(hipGetDevice(&device));
  HT_CALL(hipDeviceGetAttribute(&props_max, hipDeviceAttributeMaxThreadsPerBlock, device));
  hipLaunchKernelGGL(set_flag, dim3(1), dim3(props_max + 1), 0, 0);  // too many threads
  const hipError_t peeked = hipPeekAtLastError();
  const hipError_t got = hipGetLastError();
  std::printf("  oversized block: %s\n", hipGetErrorName(got));
  HT_EXPECT(peeked != hipSuccess);
  HT_EXPECT(got == peeked);
  HT_EXPECT(hipGetLastError() == hipSuccess);  // cleared
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("launch");
  test_no_argument_kernel();
  test_coordinates();
  test_template_kernel_and_chevrons();
  test_shared_and_launch_bounds();
  test_dynamic_shared();
  test_func_set_attribute_large_shared();
  test_hip_launch_kernel();
  test_launch_error_reporting();
  return hiptest::finish("launch");
}
