#include "plugins/common/hip/worker/device_fill.h"

#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include "plugins/common/hip/runner/cuda_text.h"

namespace arena::hip2hip {
namespace {

// dist: 0 normal(a = mean, b = std), 1 uniform[a, b), 2 randint[a, b).
constexpr char kSource[] = R"(
typedef unsigned long long u64;
__device__ u64 mix(u64 x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
__device__ double u01(u64 key, u64 i) {  // in (0, 1)
  return ((double)(mix(key ^ mix(i)) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
// Two in (0, 1), 24 bits each, from one hash.
__device__ float2 u01f2(u64 key, u64 i) {
  const u64 h = mix(key + i * 0xD1B54A32D192ED03ull);
  return make_float2(((float)(unsigned)(h >> 40) + 0.5f) * (1.0f / 16777216.0f),
                     ((float)(unsigned)((h >> 8) & 0xFFFFFFu) + 0.5f) * (1.0f / 16777216.0f));
}
__device__ unsigned short to_half(float f) {
  unsigned int x = __float_as_uint(f), sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int exp = (int)((x >> 23) & 0xff);
  if (exp == 255) return (unsigned short)(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int e = exp - 127 + 15;
  if (e >= 31) return (unsigned short)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return (unsigned short)sign;
    mant |= 0x800000u;
    int shift = 14 - e;
    unsigned int h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return (unsigned short)(sign | h);
  }
  unsigned int h = ((unsigned int)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return (unsigned short)(sign | h);
}
__device__ unsigned short to_bf16(float f) {
  unsigned int x = __float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}
extern "C" __global__ void arena_fill(char* base, u64 stride, u64 n, int dtype, int dist, double a,
                                      double b, u64 seed, u64 first) {
  const u64 k = first + blockIdx.y;  // the set's index in the draw: its key
  char* p = base + blockIdx.y * stride;
  const int wide = dtype == 3 || dtype == 8;  // float64, int64
  const u64 key = mix(seed + 0x632BE59BD9B4E019ull * (k + 1));
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
    double v;
    if (wide == 0 && dist == 0) {  // single precision is enough below 64 bits
      const float2 u = u01f2(key, i);
      v = (double)((float)a + (float)b * sqrtf(-2.0f * __logf(u.x)) * __cosf(6.2831853f * u.y));
    } else if (wide == 0 && dist == 1) {
      v = (double)((float)a + (float)(b - a) * u01f2(key, i).x);
    } else if (dist == 0) {
      v = a + b * sqrt(-2.0 * log(u01(key, 2 * i))) * cospi(2.0 * u01(key, 2 * i + 1));
    } else if (dist == 1) {
      v = a + (b - a) * u01(key, i);
    } else {
      const double span = b - a;
      double q = floor(u01(key, i) * span);
      if (q > span - 1) q = span - 1;
      v = a + q;
    }
    switch (dtype) {
      case 0: ((float*)p)[i] = (float)v; break;
      case 1: ((unsigned short*)p)[i] = to_half((float)v); break;
      case 2: ((unsigned short*)p)[i] = to_bf16((float)v); break;
      case 3: ((double*)p)[i] = v; break;
      case 4: ((signed char*)p)[i] = (signed char)v; break;
      case 5: ((unsigned char*)p)[i] = (unsigned char)v; break;
      case 6: ((short*)p)[i] = (short)v; break;
      case 7: ((int*)p)[i] = (int)v; break;
      case 8: ((long long*)p)[i] = (long long)v; break;
      default: ((unsigned char*)p)[i] = v != 0; break;
    }
  }
}
// *flag set when the n bytes at a and b differ anywhere.
extern "C" __global__ void arena_differs(const char* a, const char* b, u64 n, unsigned* flag) {
  const u64 step = (u64)gridDim.x * blockDim.x, first = blockIdx.x * (u64)blockDim.x + threadIdx.x;
  const u64 words = (((u64)a | (u64)b) & 7) == 0 ? n / 8 : 0;
  unsigned differs = 0;
  for (u64 i = first; i < words; i += step) differs |= ((const u64*)a)[i] != ((const u64*)b)[i];
  for (u64 i = words * 8 + first; i < n; i += step) differs |= a[i] != b[i];
  if (differs) *flag = 1;
}
// count elements of es bytes, every stride-th from src, packed at dst.
extern "C" __global__ void arena_gather(const char* src, u64 stride, u64 count, int es, char* dst) {
  for (u64 j = blockIdx.x * (u64)blockDim.x + threadIdx.x; j < count; j += (u64)gridDim.x * blockDim.x) {
    const char* from = src + j * stride * es;
    for (int b = 0; b < es; ++b) dst[j * es + b] = from[b];
  }
}
)";

}  // namespace

const char* DeviceFillSource() { return kSource; }

Result<std::string> DeviceFillPtx(const std::string& arch) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, kSource, "arena_fill.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    return Internal("NVRTC: cannot create the input generator");
  }
  const std::string arch_option = "--gpu-architecture=" + arch;
  const char* options[] = {arch_option.c_str(), "--std=c++17"};
  const nvrtcResult compiled = nvrtcCompileProgram(prog, 2, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) nvrtcGetProgramLog(prog, log.data());
  if (compiled != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return Internal("NVRTC: the input generator does not compile: " + log);
  }
  size_t ptx_size = 0;
  nvrtcGetPTXSize(prog, &ptx_size);
  std::string ptx(ptx_size, '\0');
  nvrtcGetPTX(prog, ptx.data());
  nvrtcDestroyProgram(&prog);
  return ptx;
}

Result<DeviceFill> DeviceFill::Create(int device) {
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess) {
    return Unavailable(std::string(kGpuRuntime) + ": " + CudaText(e));
  }
#ifdef ARENA_ROCM
  // The GPU's own target, without its features ("gfx90a:sramecc+:xnack-"):
  // an AMD code object for it.
  const std::string target = prop.gcnArchName;
  const std::string arch = target.substr(0, target.find(':'));
#else
  const std::string arch = "compute_" + std::to_string(prop.major) + std::to_string(prop.minor);
#endif
  ARENA_ASSIGN_OR_RETURN(std::string ptx, DeviceFillPtx(arch));
  cudaLibrary_t library = nullptr;
  cudaError_t e = cudaLibraryLoadData(&library, ptx.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  cudaKernel_t kernel = nullptr;
  if (e == cudaSuccess) e = cudaLibraryGetKernel(&kernel, library, "arena_fill");
  cudaKernel_t gather = nullptr, differs = nullptr;
  if (e == cudaSuccess) e = cudaLibraryGetKernel(&gather, library, "arena_gather");
  if (e == cudaSuccess) e = cudaLibraryGetKernel(&differs, library, "arena_differs");
  unsigned* flag = nullptr;
  if (e == cudaSuccess) e = cudaMalloc(reinterpret_cast<void**>(&flag), sizeof(unsigned));
  if (e != cudaSuccess) return Internal("loading the input generator: " + CudaText(e));
  DeviceFill f;
  f.kernel_ = reinterpret_cast<const void*>(kernel);
  f.gather_ = reinterpret_cast<const void*>(gather);
  f.differs_ = reinterpret_cast<const void*>(differs);
  f.flag_ = flag;  // one word per judge, never freed
  ARENA_RETURN_IF_ERROR(f.SelfCheck());
  return f;
}

// A set drawn alone (first_set = k) must be set k of a draw of many, and
// differ from the others: the timing's held rounds redraw their chosen
// set that way after the last round, and would otherwise hold a subject to
// inputs it never saw. Checked once per judge, on the GPU in use.
Status DeviceFill::SelfCheck() const {
  constexpr size_t kNumel = 3000, kStride = 4096 * sizeof(float);
  void* mem = nullptr;
  if (cudaError_t e = cudaMalloc(&mem, 4 * kStride); e != cudaSuccess) {
    return Internal("checking the input generator: " + CudaText(e));
  }
  char* base = static_cast<char*>(mem);
  auto check = [&]() -> Status {
    const nlohmann::json init = {{"dist", "normal"}};
    constexpr uint64_t kSeed = 0x5EEDull;
    ARENA_RETURN_IF_ERROR(Fill(base, kStride, 3, kNumel, ARENA_FLOAT32, init, kSeed));
    ARENA_RETURN_IF_ERROR(Fill(base + 3 * kStride, kStride, 1, kNumel, ARENA_FLOAT32, init, kSeed, 1));
    ARENA_ASSIGN_OR_RETURN(bool same_set_differs, Differs(base + kStride, base + 3 * kStride, kNumel * sizeof(float)));
    ARENA_ASSIGN_OR_RETURN(bool other_set_differs, Differs(base, base + 3 * kStride, kNumel * sizeof(float)));
    if (same_set_differs || !other_set_differs) {
      return Internal("the input generator does not draw a set alone as it draws it among others");
    }
    return OkStatus();
  };
  const Status s = check();
  cudaFree(mem);
  return s;
}

Status DeviceFill::Fill(void* base, size_t stride, size_t sets, size_t numel, ArenaDtype dtype,
                        const nlohmann::json& init, uint64_t seed, size_t first_set) const {
  if (sets == 0 || numel == 0) return OkStatus();
  if (sets > 65535) return InvalidArgument("too many sets for one fill");
  const std::string dist = init.value("dist", "normal");
  int d = 0;
  double a = 0, b = 1;
  if (dist == "normal") {
    a = init.value("mean", 0.0);
    b = init.value("std", 1.0);
  } else if (dist == "uniform") {
    d = 1;
    a = init.value("low", 0.0);
    b = init.value("high", 1.0);
  } else if (dist == "randint") {
    d = 2;
    a = init.value("low", 0.0);
    b = init.value("high", 0.0);
    if (b <= a) return InvalidArgument("randint needs high > low");
  } else {
    return InvalidArgument("unknown init dist '" + dist + "'");
  }
  char* p = static_cast<char*>(base);
  unsigned long long stride_arg = stride, n_arg = numel, seed_arg = seed, first_arg = first_set;
  int dtype_arg = static_cast<int>(dtype);
  void* args[] = {&p, &stride_arg, &n_arg, &dtype_arg, &d, &a, &b, &seed_arg, &first_arg};
  const unsigned blocks = static_cast<unsigned>(std::min<size_t>((numel + 255) / 256, 1024));
  cudaError_t e = cudaLaunchKernel(kernel_, dim3(blocks, static_cast<unsigned>(sets)), dim3(256), args, 0, nullptr);
  if (e == cudaSuccess) e = cudaStreamSynchronize(nullptr);
  if (e != cudaSuccess) return Internal("drawing inputs on the device: " + CudaText(e));
  return OkStatus();
}

Status DeviceFill::Gather(const void* src, size_t stride, size_t count, size_t element_size, void* dst) const {
  if (count == 0) return OkStatus();
  const char* from = static_cast<const char*>(src);
  char* to = static_cast<char*>(dst);
  unsigned long long stride_arg = stride, count_arg = count;
  int es = static_cast<int>(element_size);
  void* args[] = {&from, &stride_arg, &count_arg, &es, &to};
  const unsigned blocks = static_cast<unsigned>(std::min<size_t>((count + 255) / 256, 1024));
  cudaError_t e = cudaLaunchKernel(gather_, dim3(blocks), dim3(256), args, 0, nullptr);
  if (e == cudaSuccess) e = cudaStreamSynchronize(nullptr);
  if (e != cudaSuccess) return Internal("gathering a sample on the device: " + CudaText(e));
  return OkStatus();
}

Result<bool> DeviceFill::Differs(const void* a, const void* b, size_t bytes) const {
  if (bytes == 0) return false;
  const char* pa = static_cast<const char*>(a);
  const char* pb = static_cast<const char*>(b);
  unsigned long long n = bytes;
  unsigned* flag = static_cast<unsigned*>(flag_);
  void* args[] = {&pa, &pb, &n, &flag};
  const unsigned blocks = static_cast<unsigned>(std::min<size_t>((bytes / 8 + 255) / 256 + 1, 2048));
  unsigned got = 1;
  cudaError_t e = cudaMemset(flag_, 0, sizeof(unsigned));
  if (e == cudaSuccess) e = cudaLaunchKernel(differs_, dim3(blocks), dim3(256), args, 0, nullptr);
  if (e == cudaSuccess) e = cudaMemcpy(&got, flag_, sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) return Internal("comparing device memory: " + CudaText(e));
  return got != 0;
}

}  // namespace arena::hip2hip
