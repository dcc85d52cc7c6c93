// hip_on_cuda: device-side HIP names that CUDA lacks or spells differently.
//
// Included by hip/hip_runtime.h under nvcc (both passes) and under NVRTC.
// The block between the two marker lines is also the hipRTC prelude, which
// hiprtcCompileProgram pre-includes in every program: after editing it, run
// tests/prelude_sync_test.sh --write to regenerate rtc_prelude.h (the test
// fails while the two differ).
#ifndef HIP_ON_CUDA_DEVICE_FUNCTIONS_H
#define HIP_ON_CUDA_DEVICE_FUNCTIONS_H

#include "hip/nvidia_on_cuda/common.h"

#if !defined(__CUDACC_RTC__)
#include <cuda_runtime.h>
#endif

// >>> hip_on_cuda shared device source: begin
#ifndef HIP_ON_CUDA_SHARED_DEVICE_SOURCE
#define HIP_ON_CUDA_SHARED_DEVICE_SOURCE 1

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__ 1
#endif
#if !defined(__HIPCC__)
#define __HIPCC__ 1
#endif
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif

#ifndef HIP_ON_CUDA_WARP_SIZE_DEFINED
#define HIP_ON_CUDA_WARP_SIZE_DEFINED 1
static constexpr int hip_on_cuda_warp_size = 32;
#define warpSize hip_on_cuda_warp_size
#endif

// Thread and block coordinates: CUDA's builtins under HIP's old names.
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(X) X
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

// Lane index within the warp.
__device__ inline unsigned int __lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// Warp shuffles with HIP's signatures: no mask argument, width defaulting to
// warpSize. They map to the *_sync forms with a full mask, so every lane of
// the warp must reach the call (as converged HIP code does). Any type that
// CUDA's *_sync shuffles accept works (int, unsigned, long, long long and
// their unsigned forms, float, double, __half, __half2, __nv_bfloat16...).
template <typename T>
__device__ inline T hip_on_cuda_shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <typename T>
__device__ inline T hip_on_cuda_shfl_up(T var, unsigned int lane_delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, lane_delta, width);
}
template <typename T>
__device__ inline T hip_on_cuda_shfl_down(T var, unsigned int lane_delta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, lane_delta, width);
}
template <typename T>
__device__ inline T hip_on_cuda_shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, lane_mask, width);
}

// Votes: HIP's __ballot returns a 64-bit mask (the upper 32 bits are 0 here).
__device__ inline unsigned long long hip_on_cuda_ballot(int predicate) {
  return static_cast<unsigned long long>(__ballot_sync(0xffffffffu, predicate));
}
__device__ inline int hip_on_cuda_any(int predicate) {
  return __any_sync(0xffffffffu, predicate);
}
__device__ inline int hip_on_cuda_all(int predicate) {
  return __all_sync(0xffffffffu, predicate);
}

// CUDA still declares legacy functions under these names (for old
// architectures, with other signatures), so HIP's are reached through
// object-like macros: the calls keep HIP's syntax and default arguments.
#define __shfl hip_on_cuda_shfl
#define __shfl_up hip_on_cuda_shfl_up
#define __shfl_down hip_on_cuda_shfl_down
#define __shfl_xor hip_on_cuda_shfl_xor
#define __ballot hip_on_cuda_ballot
#define __any hip_on_cuda_any
#define __all hip_on_cuda_all

// Atomics HIP has and CUDA lacks: min/max on float and double (compare and
// swap loops; a NaN operand leaves the stored value unchanged).
__device__ inline float atomicMax(float* address, float val) {
  unsigned int* bits = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *bits;
  while (__uint_as_float(old) < val) {
    const unsigned int seen = atomicCAS(bits, old, __float_as_uint(val));
    if (seen == old) break;
    old = seen;
  }
  return __uint_as_float(old);
}
__device__ inline float atomicMin(float* address, float val) {
  unsigned int* bits = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *bits;
  while (__uint_as_float(old) > val) {
    const unsigned int seen = atomicCAS(bits, old, __float_as_uint(val));
    if (seen == old) break;
    old = seen;
  }
  return __uint_as_float(old);
}
__device__ inline double atomicMax(double* address, double val) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits;
  while (__longlong_as_double(static_cast<long long>(old)) < val) {
    const unsigned long long seen =
        atomicCAS(bits, old, static_cast<unsigned long long>(__double_as_longlong(val)));
    if (seen == old) break;
    old = seen;
  }
  return __longlong_as_double(static_cast<long long>(old));
}
__device__ inline double atomicMin(double* address, double val) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits;
  while (__longlong_as_double(static_cast<long long>(old)) > val) {
    const unsigned long long seen =
        atomicCAS(bits, old, static_cast<unsigned long long>(__double_as_longlong(val)));
    if (seen == old) break;
    old = seen;
  }
  return __longlong_as_double(static_cast<long long>(old));
}

// AMD's explicitly (un)safe floating-point atomic adds: one thing on NVIDIA.
__device__ inline float unsafeAtomicAdd(float* address, float val) { return atomicAdd(address, val); }
__device__ inline double unsafeAtomicAdd(double* address, double val) { return atomicAdd(address, val); }
__device__ inline float safeAtomicAdd(float* address, float val) { return atomicAdd(address, val); }
__device__ inline double safeAtomicAdd(double* address, double val) { return atomicAdd(address, val); }

#endif  // HIP_ON_CUDA_SHARED_DEVICE_SOURCE
// <<< hip_on_cuda shared device source: end

#endif  // HIP_ON_CUDA_DEVICE_FUNCTIONS_H
