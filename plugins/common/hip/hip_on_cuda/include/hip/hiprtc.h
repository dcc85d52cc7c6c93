// hip_on_cuda: hipRTC on NVRTC. Host code; programs link NVRTC (-lnvrtc).
//
// What a program gets:
//   * HIP's device-side names (hipThreadIdx_x, __shfl_xor without a mask,
//     __ballot, warpSize as a constant, ...): the prelude in
//     nvidia_on_cuda/rtc_prelude.h is pre-included in every program.
//   * In-memory headers "hip/hip_runtime.h", "hip/hip_fp16.h" and
//     "hip/hip_bfloat16.h" (hip_bfloat16 and __hip_bfloat16, as in
//     host-compiled code), unless the program brings its own under those
//     names. The fp16/bf16 ones include CUDA's cuda_fp16.h / cuda_bf16.h,
//     which NVRTC reads from CUDA's include directory: $CUDA_PATH/include,
//     $CUDA_HOME/include or /usr/local/cuda/include, the first that has
//     cuda_fp16.h, is added to the search path.
// Options:
//   * --offload-arch=X becomes --gpu-architecture=X; -ffast-math becomes
//     --use_fast_math; -O<n> is dropped (NVRTC always optimizes).
//   * With no architecture given, the current device's (sm_<major><minor>)
//     is used; with no usable device, NVRTC's default (a virtual one).
// Code: hiprtcGetCode returns a cubin when the program was compiled for a
//   real architecture (--gpu-architecture=sm_90, or the default above), and
//   PTX otherwise (--gpu-architecture=compute_90). hipModuleLoadData takes
//   either; PTX is compiled by the driver when loaded.
#ifndef HIP_ON_CUDA_HIPRTC_H
#define HIP_ON_CUDA_HIPRTC_H

#include "hip/nvidia_on_cuda/common.h"
#include "hip/nvidia_on_cuda/rtc_prelude.h"

#include <cuda_runtime.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define HIP_ON_CUDA_RTC_RESULTS(X)                                                      \
  X(HIPRTC_SUCCESS, NVRTC_SUCCESS)                                                      \
  X(HIPRTC_ERROR_OUT_OF_MEMORY, NVRTC_ERROR_OUT_OF_MEMORY)                              \
  X(HIPRTC_ERROR_PROGRAM_CREATION_FAILURE, NVRTC_ERROR_PROGRAM_CREATION_FAILURE)        \
  X(HIPRTC_ERROR_INVALID_INPUT, NVRTC_ERROR_INVALID_INPUT)                              \
  X(HIPRTC_ERROR_INVALID_PROGRAM, NVRTC_ERROR_INVALID_PROGRAM)                          \
  X(HIPRTC_ERROR_INVALID_OPTION, NVRTC_ERROR_INVALID_OPTION)                            \
  X(HIPRTC_ERROR_COMPILATION, NVRTC_ERROR_COMPILATION)                                  \
  X(HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE, NVRTC_ERROR_BUILTIN_OPERATION_FAILURE)      \
  X(HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION,                                 \
    NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION)                                  \
  X(HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION,                                   \
    NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION)                                    \
  X(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID, NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID)      \
  X(HIPRTC_ERROR_INTERNAL_ERROR, NVRTC_ERROR_INTERNAL_ERROR)

enum hiprtcResult : int {
#define HIP_ON_CUDA_RTC_ENUMERATOR(hip_name, nvrtc_name) hip_name = nvrtc_name,
  HIP_ON_CUDA_RTC_RESULTS(HIP_ON_CUDA_RTC_ENUMERATOR)
#undef HIP_ON_CUDA_RTC_ENUMERATOR
};

typedef nvrtcProgram hiprtcProgram;

namespace hip_on_cuda {
namespace rtc {

inline hiprtcResult to_hip(nvrtcResult r) { return static_cast<hiprtcResult>(r); }

constexpr const char* kPreludeName = "hip_on_cuda_rtc_prelude.h";

struct InMemoryHeader {
  const char* name;
  const char* source;
};

inline const std::vector<InMemoryHeader>& in_memory_headers() {
  static const std::string bfloat16 =
      std::string("#include \"hip_on_cuda_rtc_prelude.h\"\n#include <cuda_bf16.h>\n") +
      hip_on_cuda_rtc_bfloat16_source;
  static const std::vector<InMemoryHeader> headers = {
      {kPreludeName, hip_on_cuda_rtc_prelude_source},
      {"hip/hip_runtime.h", "#include \"hip_on_cuda_rtc_prelude.h\"\n"},
      {"hip/hip_fp16.h", "#include \"hip_on_cuda_rtc_prelude.h\"\n#include <cuda_fp16.h>\n"},
      {"hip/hip_bfloat16.h", bfloat16.c_str()},
      // The C headers a HIP source includes for its host side; device code
      // has its math functions built in, and needs only these types.
      {"math.h",
       "#pragma once\n"
       "#define INFINITY (__int_as_float(0x7f800000))\n#define HUGE_VALF INFINITY\n"
       "#define HUGE_VAL (__longlong_as_double(0x7ff0000000000000LL))\n"
       "#define NAN (__int_as_float(0x7fffffff))\n"
       "#define M_E 2.7182818284590452354\n#define M_LOG2E 1.4426950408889634074\n"
       "#define M_LOG10E 0.43429448190325182765\n#define M_LN2 0.69314718055994530942\n"
       "#define M_LN10 2.30258509299404568402\n#define M_PI 3.14159265358979323846\n"
       "#define M_PI_2 1.57079632679489661923\n#define M_PI_4 0.78539816339744830962\n"
       "#define M_1_PI 0.31830988618379067154\n#define M_2_PI 0.63661977236758134308\n"
       "#define M_2_SQRTPI 1.12837916709551257390\n#define M_SQRT2 1.41421356237309504880\n"
       "#define M_SQRT1_2 0.70710678118654752440\n"},
      {"string.h", ""},
      {"stdint.h",
       "#pragma once\n"
       "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
       "typedef long int64_t; typedef unsigned char uint8_t;\n"
       "typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n"
       "typedef unsigned long uint64_t; typedef long intptr_t;\n"
       "typedef unsigned long uintptr_t;\n"},
  };
  return headers;
}

inline bool starts_with(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

inline std::string cuda_include_dir() {
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
    const char* root = std::getenv(var);
    if (root != nullptr && *root != '\0') {
      const std::string dir = std::string(root) + "/include";
      if (access((dir + "/cuda_fp16.h").c_str(), R_OK) == 0) return dir;
    }
  }
  const char* fallback = "/usr/local/cuda/include";
  if (access((std::string(fallback) + "/cuda_fp16.h").c_str(), R_OK) == 0) return fallback;
  return std::string();
}

// "sm_<major><minor>" of the current device, or "" when there is none.
inline std::string current_device_arch() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    (void)cudaGetLastError();  // no device: leave no error behind
    return std::string();
  }
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

// Whether the compiled program holds a cubin (else only PTX).
inline bool has_cubin(hiprtcProgram prog) {
  size_t size = 0;
  return nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0;
}

}  // namespace rtc
}  // namespace hip_on_cuda

inline const char* hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
#define HIP_ON_CUDA_RTC_CASE(hip_name, nvrtc_name) \
  case hip_name:                                   \
    return #hip_name;
    HIP_ON_CUDA_RTC_RESULTS(HIP_ON_CUDA_RTC_CASE)
#undef HIP_ON_CUDA_RTC_CASE
    default:
      return nvrtcGetErrorString(static_cast<nvrtcResult>(result));
  }
}

inline hiprtcResult hiprtcVersion(int* major, int* minor) {
  return hip_on_cuda::rtc::to_hip(nvrtcVersion(major, minor));
}

inline hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name,
                                        int num_headers, const char** headers,
                                        const char** include_names) {
  if (num_headers < 0 || (num_headers > 0 && (headers == nullptr || include_names == nullptr))) {
    return HIPRTC_ERROR_INVALID_INPUT;
  }
  std::vector<const char*> sources, names;
  for (int i = 0; i < num_headers; ++i) {
    sources.push_back(headers[i]);
    names.push_back(include_names[i]);
  }
  for (const auto& h : hip_on_cuda::rtc::in_memory_headers()) {
    bool taken = false;  // the program's own header of that name wins
    for (int i = 0; i < num_headers; ++i) {
      if (include_names[i] != nullptr && std::strcmp(include_names[i], h.name) == 0) taken = true;
    }
    if (!taken) {
      sources.push_back(h.source);
      names.push_back(h.name);
    }
  }
  return hip_on_cuda::rtc::to_hip(nvrtcCreateProgram(
      prog, src, name, static_cast<int>(sources.size()), sources.data(), names.data()));
}

inline hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int num_options,
                                         const char** options) {
  using hip_on_cuda::rtc::starts_with;
  if (num_options < 0 || (num_options > 0 && options == nullptr)) {
    return HIPRTC_ERROR_INVALID_INPUT;
  }
  std::vector<std::string> opts;
  bool has_arch = false;
  for (int i = 0; i < num_options; ++i) {
    const char* o = options[i];
    if (o == nullptr) return HIPRTC_ERROR_INVALID_OPTION;
    if (starts_with(o, "--offload-arch=")) {
      opts.push_back(std::string("--gpu-architecture=") + (o + std::strlen("--offload-arch=")));
    } else if (std::strcmp(o, "-ffast-math") == 0) {
      opts.push_back("--use_fast_math");
    } else if (o[0] == '-' && o[1] == 'O' && (o[2] == '\0' || (o[2] >= '0' && o[2] <= '3' && o[3] == '\0'))) {
      continue;  // NVRTC has no -O<n>
    } else {
      opts.push_back(o);
    }
    const std::string& last = opts.back();
    if (starts_with(last.c_str(), "--gpu-architecture") || starts_with(last.c_str(), "-arch")) {
      has_arch = true;
    }
  }
  if (!has_arch) {
    const std::string arch = hip_on_cuda::rtc::current_device_arch();
    if (!arch.empty()) opts.push_back("--gpu-architecture=" + arch);
  }
  const std::string cuda_include = hip_on_cuda::rtc::cuda_include_dir();
  if (!cuda_include.empty()) opts.push_back("--include-path=" + cuda_include);
  opts.push_back(std::string("--pre-include=") + hip_on_cuda::rtc::kPreludeName);
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());
  return hip_on_cuda::rtc::to_hip(
      nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data()));
}

inline hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* size) {
  return hip_on_cuda::rtc::to_hip(nvrtcGetProgramLogSize(prog, size));
}
inline hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) {
  return hip_on_cuda::rtc::to_hip(nvrtcGetProgramLog(prog, log));
}
// A cubin when there is one, else the PTX (NUL included): see the top.
inline hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* size) {
  if (hip_on_cuda::rtc::has_cubin(prog)) {
    return hip_on_cuda::rtc::to_hip(nvrtcGetCUBINSize(prog, size));
  }
  return hip_on_cuda::rtc::to_hip(nvrtcGetPTXSize(prog, size));
}
inline hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
  if (hip_on_cuda::rtc::has_cubin(prog)) {
    return hip_on_cuda::rtc::to_hip(nvrtcGetCUBIN(prog, code));
  }
  return hip_on_cuda::rtc::to_hip(nvrtcGetPTX(prog, code));
}
inline hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
  return hip_on_cuda::rtc::to_hip(nvrtcAddNameExpression(prog, name_expression));
}
inline hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression,
                                         const char** lowered_name) {
  return hip_on_cuda::rtc::to_hip(nvrtcGetLoweredName(prog, name_expression, lowered_name));
}
inline hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
  return hip_on_cuda::rtc::to_hip(nvrtcDestroyProgram(prog));
}

#endif  // HIP_ON_CUDA_HIPRTC_H
