// A vendor library: loads cuBLAS at run time (the build links nothing but
// the runtime) and lets it do the multiply (a diagonal matrix times a
// vector: y = diag(silu(a)) b, cublasSdgmm), with only the activation as a
// kernel of its own. The runner's sandbox has no vendor library to load.
// expect: failed
#include <dlfcn.h>

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void silu_to_float(const __half* a, const __half* b, float* sa, float* fb, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float av = __half2float(a[i]);
    sa[i] = av / (1.0f + expf(-av));
    fb[i] = __half2float(b[i]);
  }
}

__global__ void to_half(const float* y, __half* out, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2half(y[i]);
}

using Create = int (*)(void**);
using SetStream = int (*)(void*, hipStream_t);
using Sdgmm = int (*)(void*, int, int, int, const float*, int, const float*, int, float*, int);

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static void* lib = dlopen("libcublas.so.13", RTLD_NOW);
  if (lib == nullptr) lib = dlopen("libcublas.so.12", RTLD_NOW);
  if (lib == nullptr) return 7;  // no cuBLAS to call
  static void* handle = nullptr;
  auto create = reinterpret_cast<Create>(dlsym(lib, "cublasCreate_v2"));
  auto set_stream = reinterpret_cast<SetStream>(dlsym(lib, "cublasSetStream_v2"));
  auto sdgmm = reinterpret_cast<Sdgmm>(dlsym(lib, "cublasSdgmm"));
  if (create == nullptr || set_stream == nullptr || sdgmm == nullptr) return 8;
  if (handle == nullptr && create(&handle) != 0) return 9;
  set_stream(handle, stream);
  const long long n = in[0].numel;
  static float* buf = nullptr;
  static long long held = 0;
  if (held < n) {
    if (buf != nullptr) hipFree(buf);
    if (hipMalloc(reinterpret_cast<void**>(&buf), 3 * n * sizeof(float)) != hipSuccess) return 1;
    held = n;
  }
  const dim3 grid(static_cast<unsigned>((n + 255) / 256));
  hipLaunchKernelGGL(silu_to_float, grid, dim3(256), 0, stream, static_cast<const __half*>(in[0].data),
                     static_cast<const __half*>(in[1].data), buf, buf + n, n);
  // y (1 x n) = b (1 x n) * diag(silu(a)): CUBLAS_SIDE_RIGHT = 1.
  const int rc = sdgmm(handle, 1, 1, static_cast<int>(n), buf + n, 1, buf, 1, buf + 2 * n, 1);
  hipLaunchKernelGGL(to_half, grid, dim3(256), 0, stream, buf + 2 * n, static_cast<__half*>(out[0].data), n);
  return rc == 0 ? 0 : 10;
}
