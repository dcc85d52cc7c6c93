// A CUDA runtime error as "cudaErrorName: description", for messages.
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_

#include <string>

#include <cuda_runtime_api.h>

namespace arena::hip2hip {

inline std::string CudaText(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_CUDA_TEXT_H_
