// hip_on_cuda: the host side of a candidate built for runtime compilation
// (plugins/common/hip/build/rtc_split.h). Its device side is a module that
// NVRTC built, NAME.cubin, with NAME.names beside it (one line per kernel:
// the name expression launched, a tab, its lowered name), where NAME.so is
// the shared library this code is linked into.
//
// hipLaunchKernelGGL(kernel, grid, block, shared bytes, stream, args...)
// becomes a launch of the module's function of the same name: `kernel` is
// the host-side stub (its body emptied), whose address the split's table
// maps to the name expression, and whose parameter types the arguments are
// converted to, as a launch would. Compiled by a host compiler only (g++).
#ifndef HIP_ON_CUDA_RTC_LAUNCH_H
#define HIP_ON_CUDA_RTC_LAUNCH_H

#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "hip/hip_runtime_api.h"

// A kernel's body is the module's: on the host, the stub is a plain function.
#undef __global__
#define __global__
#undef __launch_bounds__
#define __launch_bounds__(...)

#undef hipLaunchKernelGGL
#define hipLaunchKernelGGL(kernel_name, num_blocks, num_threads, shared_mem_bytes, stream, ...) \
  ::hip_on_cuda::rtc::Launch(kernel_name, dim3(num_blocks), dim3(num_threads),                 \
                             static_cast<size_t>(shared_mem_bytes), stream, ##__VA_ARGS__)

namespace hip_on_cuda {
namespace rtc {

// C-level containers only: this header is parsed for every candidate, and
// the standard library's maps and streams would triple the host side's
// compile time.
struct KernelName {
  const void* stub;
  const char* expression;
};

class Module {
 public:
  static constexpr int kMaxKernels = 256;

  static Module& Get() {
    static Module module;
    return module;
  }

  void Register(const KernelName* names, size_t count) {
    pthread_mutex_lock(&mu_);
    for (size_t i = 0; i < count && count_ < kMaxKernels; ++i) {
      if (names[i].stub != nullptr) entries_[count_++] = {names[i].stub, names[i].expression, nullptr};
    }
    pthread_mutex_unlock(&mu_);
  }

  hipError_t Function(const void* stub, hipFunction_t* function) {
    pthread_mutex_lock(&mu_);
    const hipError_t e = FunctionLocked(stub, function);
    pthread_mutex_unlock(&mu_);
    return e;
  }

 private:
  struct Entry {
    const void* stub;
    const char* expression;
    hipFunction_t function;
  };

  hipError_t FunctionLocked(const void* stub, hipFunction_t* function) {
    Entry* entry = nullptr;
    for (int i = 0; i < count_; ++i) {
      if (entries_[i].stub == stub) entry = &entries_[i];
    }
    if (entry == nullptr) return hipErrorInvalidDeviceFunction;
    if (entry->function == nullptr) {
      char base[4096];
      if (!Base(base, sizeof(base))) return hipErrorFileNotFound;
      if (module_ == nullptr) {
        char cubin[4200];
        std::snprintf(cubin, sizeof(cubin), "%s.cubin", base);
        const hipError_t loaded = hipModuleLoad(&module_, cubin);
        if (loaded != hipSuccess) return loaded;
      }
      char lowered[4096];
      if (!Lowered(base, entry->expression, lowered, sizeof(lowered))) {
        return hipErrorInvalidDeviceFunction;
      }
      const hipError_t got = hipModuleGetFunction(&entry->function, module_, lowered);
      if (got != hipSuccess) return got;
    }
    *function = entry->function;
    return hipSuccess;
  }

  // The path of the shared library this code is in, without its ".so".
  static bool Base(char* out, size_t size) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&Module::Get), &info) == 0 || info.dli_fname == nullptr) {
      return false;
    }
    size_t n = std::strlen(info.dli_fname);
    if (n > 3 && std::strcmp(info.dli_fname + n - 3, ".so") == 0) n -= 3;
    if (n + 1 > size) return false;
    std::memcpy(out, info.dli_fname, n);
    out[n] = '\0';
    return true;
  }

  // NAME.names: "EXPRESSION<TAB>LOWERED" per line.
  static bool Lowered(const char* base, const char* expression, char* out, size_t size) {
    char path[4200];
    std::snprintf(path, sizeof(path), "%s.names", base);
    std::FILE* f = std::fopen(path, "r");
    if (f == nullptr) return false;
    char line[8192];
    bool found = false;
    const size_t n = std::strlen(expression);
    while (!found && std::fgets(line, sizeof(line), f) != nullptr) {
      if (std::strncmp(line, expression, n) != 0 || line[n] != '\t') continue;
      const char* lowered = line + n + 1;
      const size_t len = std::strcspn(lowered, "\r\n");
      if (len + 1 > size) break;
      std::memcpy(out, lowered, len);
      out[len] = '\0';
      found = true;
    }
    std::fclose(f);
    return found;
  }

  pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
  hipModule_t module_ = nullptr;
  Entry entries_[kMaxKernels] = {};
  int count_ = 0;
};

struct Registration {
  Registration(const KernelName* names, size_t count) { Module::Get().Register(names, count); }
};

template <typename... D>
hipError_t LaunchValues(hipFunction_t f, dim3 grid, dim3 block, size_t shared_bytes,
                        hipStream_t stream, D... values) {
  void* params[sizeof...(D) + 1] = {static_cast<void*>(&values)..., nullptr};
  return hipModuleLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                               static_cast<unsigned int>(shared_bytes), stream, params, nullptr);
}

// The arguments converted to the kernel's parameter types, as a launch
// converts them.
template <typename... P, typename... A>
hipError_t Launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t shared_bytes,
                  hipStream_t stream, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "hipLaunchKernelGGL: the kernel takes another number of arguments");
  hipFunction_t f = nullptr;
  const hipError_t found = Module::Get().Function(reinterpret_cast<const void*>(kernel), &f);
  if (found != hipSuccess) return found;
  return LaunchValues<typename std::decay<P>::type...>(
      f, grid, block, shared_bytes, stream,
      static_cast<typename std::decay<P>::type>(std::forward<A>(args))...);
}

}  // namespace rtc
}  // namespace hip_on_cuda

#endif  // HIP_ON_CUDA_RTC_LAUNCH_H
