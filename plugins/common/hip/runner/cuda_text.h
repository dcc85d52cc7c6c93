// A CUDA runtime error as "cudaErrorName: description", for messages (on
// ROCm, plugins/common/hip/rocm, the HIP runtime's: "hipErrorName: ...").
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_

#include <string>

#include <cuda_runtime_api.h>

namespace arena::hip2hip {

// The runtime's name, for messages.
#ifdef ARENA_ROCM
inline constexpr char kGpuRuntime[] = "HIP";
#else
inline constexpr char kGpuRuntime[] = "CUDA";
#endif

inline std::string CudaText(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_
