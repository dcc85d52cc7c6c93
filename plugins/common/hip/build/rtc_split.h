// A HIP candidate split for runtime compilation: NVRTC (hipRTC on NVIDIA)
// compiles device code only and refuses any host function, declarations
// included, so a kernel.hip goes to it without its host functions, and to a
// host compiler without its device code:
//
//   device_source  the file with every host function definition removed
//                  (kernels, __device__ and __host__ __device__ functions,
//                  types, constants, macros and includes stay)
//   host_source    the file with every kernel's body emptied (the stub's
//                  address names the kernel at launch), __device__-only
//                  functions and device variables removed, a prelude that
//                  turns hipLaunchKernelGGL into a launch of the NVRTC
//                  module's function, and a table of the kernels launched
//   kernels        the name expressions launched (hipLaunchKernelGGL's
//                  first argument, HIP_KERNEL_NAME(...) unwrapped), for
//                  nvrtcAddNameExpression
//
// What the split cannot take is an error saying why, and the candidate is
// built by nvcc as before: triple-chevron launches, launches inside a macro
// or a class's member function, host code that names a kernel or a device
// variable beyond a launch (hipFuncSetAttribute, hipMemcpyToSymbol),
// preprocessor conditionals inside a declaration, anything its small
// parser does not recognise.
#ifndef ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_SPLIT_H_
#define ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_SPLIT_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace arena::hip2hip {

struct RtcSplit {
  std::string device_source;
  std::string host_source;
  std::vector<std::string> kernels;
};

Result<RtcSplit> SplitForRuntimeCompilation(const std::string& source);

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_SPLIT_H_
