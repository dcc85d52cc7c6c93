// hip_on_cuda: internal header shared by every public header of this layer.
//
// It marks the platform (NVIDIA), refuses AMD compilers (they must use ROCm's
// own HIP headers) and provides `warpSize` as the compile-time constant 32.
#ifndef HIP_ON_CUDA_COMMON_H
#define HIP_ON_CUDA_COMMON_H

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__) || \
    (defined(__HIP__) && !defined(__CUDACC__))
#error "hip_on_cuda is the HIP layer for NVIDIA targets (nvcc / NVRTC); compile AMD code with hipcc and ROCm's own HIP headers."
#endif

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__  // the older spelling, still tested by some code
#define __HIP_PLATFORM_NVCC__ 1
#endif

// Version of this layer (not a HIP version).
#define HIP_ON_CUDA 1
#define HIP_ON_CUDA_VERSION 1

#if defined(__CUDACC__) && !defined(__HIPCC__)
#define __HIPCC__ 1
#endif
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif

// CUDA's own headers come first: cuda_runtime.h declares the builtin variable
// `warpSize` (device_launch_parameters.h), which the macro below renames
// everywhere after this point.
#if !defined(__CUDACC_RTC__)
#include <cuda_runtime.h>
#endif

// warpSize: HIP code uses it in constant expressions (array bounds, template
// arguments) and on the host; CUDA's builtin is a device-only runtime value.
// Every later use of the token, including hipDeviceProp_t's field of that
// name, becomes this constant's name, so `prop.warpSize` keeps working.
// (The same block sits in the hipRTC prelude: see device_functions.h.)
#ifndef HIP_ON_CUDA_WARP_SIZE_DEFINED
#define HIP_ON_CUDA_WARP_SIZE_DEFINED 1
static constexpr int hip_on_cuda_warp_size = 32;
#define warpSize hip_on_cuda_warp_size
#endif

#endif  // HIP_ON_CUDA_COMMON_H
