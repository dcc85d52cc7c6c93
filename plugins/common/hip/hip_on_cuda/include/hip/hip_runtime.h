// hip_on_cuda: HIP on NVIDIA GPUs. The header HIP kernels and launchers
// include; for nvcc (`-I <this include dir>`), NVRTC, or a plain host
// compiler (host API only). Never for AMD: hipcc uses ROCm's own headers.
//
//   nvcc:  everything: host API, device functions, hipLaunchKernelGGL.
//   NVRTC: device functions only (hipRTC pre-includes them anyway).
//   g++:   host API only (kernels need nvcc).
#ifndef HIP_ON_CUDA_HIP_RUNTIME_H
#define HIP_ON_CUDA_HIP_RUNTIME_H

#include "hip/nvidia_on_cuda/common.h"

#if defined(__CUDACC_RTC__)

#include "hip/nvidia_on_cuda/device_functions.h"

#else  // nvcc or a host compiler

#include <cuda_runtime.h>
#include "hip/hip_runtime_api.h"

#if defined(__CUDACC__)
#include "hip/nvidia_on_cuda/device_functions.h"

// hipLaunchKernelGGL(kernel, grid, block, dynamic shared bytes, stream,
// args...): CUDA's triple-chevron launch. Wrap a template kernel's name in
// HIP_KERNEL_NAME(...) when it has commas.
#define hipLaunchKernelGGL(kernel_name, num_blocks, num_threads, shared_mem_bytes, stream, ...) \
  do {                                                                                         \
    kernel_name<<<(num_blocks), (num_threads), (shared_mem_bytes), (stream)>>>(__VA_ARGS__);   \
  } while (0)
#endif  // __CUDACC__

#endif  // __CUDACC_RTC__

#endif  // HIP_ON_CUDA_HIP_RUNTIME_H
