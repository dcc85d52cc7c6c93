// hip_on_cuda: the HIP runtime API on NVIDIA GPUs, as inline functions over
// the CUDA runtime (CUDA 12/13). Host code only; works under nvcc and under
// a plain host compiler given CUDA's include directory. Programs link cudart
// (static is fine): nothing here calls the driver API.
//
// See ../../README.md for the table of what maps to what.
#ifndef HIP_ON_CUDA_HIP_RUNTIME_API_H
#define HIP_ON_CUDA_HIP_RUNTIME_API_H

#include "hip/nvidia_on_cuda/common.h"

#if defined(__CUDACC_RTC__)
#error "hip/hip_runtime_api.h is host API; NVRTC/hipRTC sources include hip/hip_runtime.h"
#endif

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstring>

// ---------------------------------------------------------------------------
// Errors. hipError_t is its own type; each value is the numerically equal
// CUDA error (HIP's numbering follows CUDA's), so conversion is a cast.
// ---------------------------------------------------------------------------
#define HIP_ON_CUDA_ERRORS(X)                                            \
  X(hipSuccess, cudaSuccess)                                             \
  X(hipErrorInvalidValue, cudaErrorInvalidValue)                         \
  X(hipErrorOutOfMemory, cudaErrorMemoryAllocation)                      \
  X(hipErrorNotInitialized, cudaErrorInitializationError)                \
  X(hipErrorDeinitialized, cudaErrorCudartUnloading)                     \
  X(hipErrorProfilerDisabled, cudaErrorProfilerDisabled)                 \
  X(hipErrorProfilerNotInitialized, cudaErrorProfilerNotInitialized)     \
  X(hipErrorProfilerAlreadyStarted, cudaErrorProfilerAlreadyStarted)     \
  X(hipErrorProfilerAlreadyStopped, cudaErrorProfilerAlreadyStopped)     \
  X(hipErrorInvalidConfiguration, cudaErrorInvalidConfiguration)         \
  X(hipErrorInvalidPitchValue, cudaErrorInvalidPitchValue)               \
  X(hipErrorInvalidSymbol, cudaErrorInvalidSymbol)                       \
  X(hipErrorInvalidDevicePointer, cudaErrorInvalidDevicePointer)         \
  X(hipErrorInvalidMemcpyDirection, cudaErrorInvalidMemcpyDirection)     \
  X(hipErrorInsufficientDriver, cudaErrorInsufficientDriver)             \
  X(hipErrorMissingConfiguration, cudaErrorMissingConfiguration)         \
  X(hipErrorPriorLaunchFailure, cudaErrorPriorLaunchFailure)             \
  X(hipErrorInvalidDeviceFunction, cudaErrorInvalidDeviceFunction)       \
  X(hipErrorNoDevice, cudaErrorNoDevice)                                 \
  X(hipErrorInvalidDevice, cudaErrorInvalidDevice)                       \
  X(hipErrorInvalidImage, cudaErrorInvalidKernelImage)                   \
  X(hipErrorInvalidContext, cudaErrorDeviceUninitialized)                \
  X(hipErrorMapFailed, cudaErrorMapBufferObjectFailed)                   \
  X(hipErrorUnmapFailed, cudaErrorUnmapBufferObjectFailed)               \
  X(hipErrorArrayIsMapped, cudaErrorArrayIsMapped)                       \
  X(hipErrorAlreadyMapped, cudaErrorAlreadyMapped)                       \
  X(hipErrorNoBinaryForGpu, cudaErrorNoKernelImageForDevice)             \
  X(hipErrorAlreadyAcquired, cudaErrorAlreadyAcquired)                   \
  X(hipErrorNotMapped, cudaErrorNotMapped)                               \
  X(hipErrorNotMappedAsArray, cudaErrorNotMappedAsArray)                 \
  X(hipErrorNotMappedAsPointer, cudaErrorNotMappedAsPointer)             \
  X(hipErrorECCNotCorrectable, cudaErrorECCUncorrectable)                \
  X(hipErrorUnsupportedLimit, cudaErrorUnsupportedLimit)                 \
  X(hipErrorContextAlreadyInUse, cudaErrorDeviceAlreadyInUse)            \
  X(hipErrorPeerAccessUnsupported, cudaErrorPeerAccessUnsupported)       \
  X(hipErrorInvalidKernelFile, cudaErrorInvalidPtx)                      \
  X(hipErrorInvalidGraphicsContext, cudaErrorInvalidGraphicsContext)     \
  X(hipErrorInvalidSource, cudaErrorInvalidSource)                       \
  X(hipErrorFileNotFound, cudaErrorFileNotFound)                         \
  X(hipErrorSharedObjectSymbolNotFound, cudaErrorSharedObjectSymbolNotFound) \
  X(hipErrorSharedObjectInitFailed, cudaErrorSharedObjectInitFailed)     \
  X(hipErrorOperatingSystem, cudaErrorOperatingSystem)                   \
  X(hipErrorInvalidHandle, cudaErrorInvalidResourceHandle)               \
  X(hipErrorIllegalState, cudaErrorIllegalState)                         \
  X(hipErrorNotFound, cudaErrorSymbolNotFound)                           \
  X(hipErrorNotReady, cudaErrorNotReady)                                 \
  X(hipErrorIllegalAddress, cudaErrorIllegalAddress)                     \
  X(hipErrorLaunchOutOfResources, cudaErrorLaunchOutOfResources)         \
  X(hipErrorLaunchTimeOut, cudaErrorLaunchTimeout)                       \
  X(hipErrorPeerAccessAlreadyEnabled, cudaErrorPeerAccessAlreadyEnabled) \
  X(hipErrorPeerAccessNotEnabled, cudaErrorPeerAccessNotEnabled)         \
  X(hipErrorSetOnActiveProcess, cudaErrorSetOnActiveProcess)             \
  X(hipErrorContextIsDestroyed, cudaErrorContextIsDestroyed)             \
  X(hipErrorAssert, cudaErrorAssert)                                     \
  X(hipErrorHostMemoryAlreadyRegistered, cudaErrorHostMemoryAlreadyRegistered) \
  X(hipErrorHostMemoryNotRegistered, cudaErrorHostMemoryNotRegistered)   \
  X(hipErrorLaunchFailure, cudaErrorLaunchFailure)                       \
  X(hipErrorCooperativeLaunchTooLarge, cudaErrorCooperativeLaunchTooLarge) \
  X(hipErrorNotSupported, cudaErrorNotSupported)                         \
  X(hipErrorStreamCaptureUnsupported, cudaErrorStreamCaptureUnsupported) \
  X(hipErrorStreamCaptureInvalidated, cudaErrorStreamCaptureInvalidated) \
  X(hipErrorStreamCaptureMerge, cudaErrorStreamCaptureMerge)             \
  X(hipErrorStreamCaptureUnmatched, cudaErrorStreamCaptureUnmatched)     \
  X(hipErrorStreamCaptureUnjoined, cudaErrorStreamCaptureUnjoined)       \
  X(hipErrorStreamCaptureIsolation, cudaErrorStreamCaptureIsolation)     \
  X(hipErrorStreamCaptureImplicit, cudaErrorStreamCaptureImplicit)       \
  X(hipErrorCapturedEvent, cudaErrorCapturedEvent)                       \
  X(hipErrorStreamCaptureWrongThread, cudaErrorStreamCaptureWrongThread) \
  X(hipErrorGraphExecUpdateFailure, cudaErrorGraphExecUpdateFailure)     \
  X(hipErrorUnknown, cudaErrorUnknown)

enum hipError_t : int {
#define HIP_ON_CUDA_ERROR_ENUMERATOR(hip_name, cuda_name) hip_name = cuda_name,
  HIP_ON_CUDA_ERRORS(HIP_ON_CUDA_ERROR_ENUMERATOR)
#undef HIP_ON_CUDA_ERROR_ENUMERATOR
  // HIP's older names for the same values.
  hipErrorMemoryAllocation = hipErrorOutOfMemory,
  hipErrorInitializationError = hipErrorNotInitialized,
  hipErrorInvalidResourceHandle = hipErrorInvalidHandle,
};

namespace hip_on_cuda {
inline hipError_t to_hip(cudaError_t e) { return static_cast<hipError_t>(e); }
inline cudaError_t to_cuda(hipError_t e) { return static_cast<cudaError_t>(e); }
}  // namespace hip_on_cuda

// CUDA's message for the same error.
inline const char* hipGetErrorString(hipError_t e) {
  return cudaGetErrorString(hip_on_cuda::to_cuda(e));
}
// HIP's name ("hipErrorInvalidValue"); CUDA's name for codes HIP has none for.
inline const char* hipGetErrorName(hipError_t e) {
  switch (e) {
#define HIP_ON_CUDA_ERROR_CASE(hip_name, cuda_name) \
  case hip_name:                                    \
    return #hip_name;
    HIP_ON_CUDA_ERRORS(HIP_ON_CUDA_ERROR_CASE)
#undef HIP_ON_CUDA_ERROR_CASE
    default:
      return cudaGetErrorName(hip_on_cuda::to_cuda(e));
  }
}
inline hipError_t hipGetLastError() { return hip_on_cuda::to_hip(cudaGetLastError()); }
inline hipError_t hipPeekAtLastError() { return hip_on_cuda::to_hip(cudaPeekAtLastError()); }

// ---------------------------------------------------------------------------
// Handles and enums.
// ---------------------------------------------------------------------------
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef cudaGraphNode_t hipGraphNode_t;
typedef cudaLibrary_t hipModule_t;   // module API: CUDA runtime libraries
typedef cudaKernel_t hipFunction_t;  // a kernel of such a library
typedef void* hipDeviceptr_t;

enum hipMemcpyKind {
  hipMemcpyHostToHost = cudaMemcpyHostToHost,
  hipMemcpyHostToDevice = cudaMemcpyHostToDevice,
  hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost,
  hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice,
  hipMemcpyDefault = cudaMemcpyDefault,
};

enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = cudaStreamCaptureModeGlobal,
  hipStreamCaptureModeThreadLocal = cudaStreamCaptureModeThreadLocal,
  hipStreamCaptureModeRelaxed = cudaStreamCaptureModeRelaxed,
};

enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = cudaStreamCaptureStatusNone,
  hipStreamCaptureStatusActive = cudaStreamCaptureStatusActive,
  hipStreamCaptureStatusInvalidated = cudaStreamCaptureStatusInvalidated,
};

enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = cudaGraphInstantiateFlagAutoFreeOnLaunch,
};

enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = cudaFuncAttributeMaxDynamicSharedMemorySize,
  hipFuncAttributePreferredSharedMemoryCarveout = cudaFuncAttributePreferredSharedMemoryCarveout,
};

// Flags: HIP's values equal CUDA's; AMD-only host-allocation bits are
// accepted and ignored.
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)
#define hipStreamPerThread (cudaStreamPerThread)

// Device attributes: each HIP name carries the value of CUDA's attribute.
enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock = cudaDevAttrMaxThreadsPerBlock,
  hipDeviceAttributeMaxBlockDimX = cudaDevAttrMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY = cudaDevAttrMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ = cudaDevAttrMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX = cudaDevAttrMaxGridDimX,
  hipDeviceAttributeMaxGridDimY = cudaDevAttrMaxGridDimY,
  hipDeviceAttributeMaxGridDimZ = cudaDevAttrMaxGridDimZ,
  hipDeviceAttributeMaxSharedMemoryPerBlock = cudaDevAttrMaxSharedMemoryPerBlock,
  hipDeviceAttributeSharedMemPerBlockOptin = cudaDevAttrMaxSharedMemoryPerBlockOptin,
  hipDeviceAttributeSharedMemPerMultiprocessor = cudaDevAttrMaxSharedMemoryPerMultiprocessor,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = cudaDevAttrMaxSharedMemoryPerMultiprocessor,
  hipDeviceAttributeTotalConstantMemory = cudaDevAttrTotalConstantMemory,
  hipDeviceAttributeWarpSize = cudaDevAttrWarpSize,
  hipDeviceAttributeMaxRegistersPerBlock = cudaDevAttrMaxRegistersPerBlock,
  hipDeviceAttributeMaxRegistersPerMultiprocessor = cudaDevAttrMaxRegistersPerMultiprocessor,
  hipDeviceAttributeClockRate = cudaDevAttrClockRate,
  hipDeviceAttributeMemoryClockRate = cudaDevAttrMemoryClockRate,
  hipDeviceAttributeMemoryBusWidth = cudaDevAttrGlobalMemoryBusWidth,
  hipDeviceAttributeMultiprocessorCount = cudaDevAttrMultiProcessorCount,
  hipDeviceAttributeL2CacheSize = cudaDevAttrL2CacheSize,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = cudaDevAttrMaxThreadsPerMultiProcessor,
  hipDeviceAttributeMaxBlocksPerMultiProcessor = cudaDevAttrMaxBlocksPerMultiprocessor,
  hipDeviceAttributeComputeCapabilityMajor = cudaDevAttrComputeCapabilityMajor,
  hipDeviceAttributeComputeCapabilityMinor = cudaDevAttrComputeCapabilityMinor,
  hipDeviceAttributeComputeMode = cudaDevAttrComputeMode,
  hipDeviceAttributeKernelExecTimeout = cudaDevAttrKernelExecTimeout,
  hipDeviceAttributeConcurrentKernels = cudaDevAttrConcurrentKernels,
  hipDeviceAttributeAsyncEngineCount = cudaDevAttrAsyncEngineCount,
  hipDeviceAttributePciBusId = cudaDevAttrPciBusId,
  hipDeviceAttributePciDeviceId = cudaDevAttrPciDeviceId,
  hipDeviceAttributePciDomainID = cudaDevAttrPciDomainId,
  hipDeviceAttributeIsMultiGpuBoard = cudaDevAttrIsMultiGpuBoard,
  hipDeviceAttributeIntegrated = cudaDevAttrIntegrated,
  hipDeviceAttributeCanMapHostMemory = cudaDevAttrCanMapHostMemory,
  hipDeviceAttributeEccEnabled = cudaDevAttrEccEnabled,
  hipDeviceAttributeUnifiedAddressing = cudaDevAttrUnifiedAddressing,
  hipDeviceAttributeManagedMemory = cudaDevAttrManagedMemory,
  hipDeviceAttributeConcurrentManagedAccess = cudaDevAttrConcurrentManagedAccess,
  hipDeviceAttributePageableMemoryAccess = cudaDevAttrPageableMemoryAccess,
  hipDeviceAttributeDirectManagedMemAccessFromHost = cudaDevAttrDirectManagedMemAccessFromHost,
  hipDeviceAttributeCooperativeLaunch = cudaDevAttrCooperativeLaunch,
  hipDeviceAttributeStreamPrioritiesSupported = cudaDevAttrStreamPrioritiesSupported,
  hipDeviceAttributeMemoryPoolsSupported = cudaDevAttrMemoryPoolsSupported,
  hipDeviceAttributeHostNativeAtomicSupported = cudaDevAttrHostNativeAtomicSupported,
  hipDeviceAttributeMaxPitch = cudaDevAttrMaxPitch,
};

// ---------------------------------------------------------------------------
// Devices.
// ---------------------------------------------------------------------------
// Our own struct: the fields kernels and launchers read. Filled from
// cudaGetDeviceProperties and cudaDeviceGetAttribute; clockRate and
// memoryClockRate (kHz) come from the attributes CUDA 13 still has.
struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int concurrentKernels;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  size_t maxSharedMemoryPerMultiProcessor;
  size_t sharedMemPerBlockOptin;
  int regsPerMultiprocessor;
  int isMultiGpuBoard;
  int canMapHostMemory;
  int gcnArch;            // major * 10 + minor on NVIDIA, e.g. 90
  char gcnArchName[256];  // "sm_<major><minor>", e.g. "sm_90"
  int integrated;
  int cooperativeLaunch;
  int kernelExecTimeoutEnabled;
  int ECCEnabled;
  int managedMemory;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  size_t memPitch;
};

inline hipError_t hipGetDeviceCount(int* count) {
  return hip_on_cuda::to_hip(cudaGetDeviceCount(count));
}
inline hipError_t hipSetDevice(int device) { return hip_on_cuda::to_hip(cudaSetDevice(device)); }
inline hipError_t hipGetDevice(int* device) { return hip_on_cuda::to_hip(cudaGetDevice(device)); }
inline hipError_t hipDeviceSynchronize() { return hip_on_cuda::to_hip(cudaDeviceSynchronize()); }
inline hipError_t hipDeviceReset() { return hip_on_cuda::to_hip(cudaDeviceReset()); }
inline hipError_t hipDriverGetVersion(int* version) {
  return hip_on_cuda::to_hip(cudaDriverGetVersion(version));
}
inline hipError_t hipRuntimeGetVersion(int* version) {
  return hip_on_cuda::to_hip(cudaRuntimeGetVersion(version));
}

inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device) {
  return hip_on_cuda::to_hip(
      cudaDeviceGetAttribute(value, static_cast<cudaDeviceAttr>(attr), device));
}

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  if (prop == nullptr) return hipErrorInvalidValue;
  cudaDeviceProp cp;
  cudaError_t e = cudaGetDeviceProperties(&cp, device);
  if (e != cudaSuccess) return hip_on_cuda::to_hip(e);
  std::memset(prop, 0, sizeof(*prop));
  std::memcpy(prop->name, cp.name, sizeof(prop->name) < sizeof(cp.name) ? sizeof(prop->name)
                                                                        : sizeof(cp.name));
  prop->name[sizeof(prop->name) - 1] = '\0';
  prop->totalGlobalMem = cp.totalGlobalMem;
  prop->sharedMemPerBlock = cp.sharedMemPerBlock;
  prop->regsPerBlock = cp.regsPerBlock;
  prop->maxThreadsPerBlock = cp.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = cp.maxThreadsDim[i];
    prop->maxGridSize[i] = cp.maxGridSize[i];
  }
  prop->memoryBusWidth = cp.memoryBusWidth;
  prop->totalConstMem = cp.totalConstMem;
  prop->major = cp.major;
  prop->minor = cp.minor;
  prop->multiProcessorCount = cp.multiProcessorCount;
  prop->l2CacheSize = cp.l2CacheSize;
  prop->maxThreadsPerMultiProcessor = cp.maxThreadsPerMultiProcessor;
  prop->concurrentKernels = cp.concurrentKernels;
  prop->pciDomainID = cp.pciDomainID;
  prop->pciBusID = cp.pciBusID;
  prop->pciDeviceID = cp.pciDeviceID;
  prop->maxSharedMemoryPerMultiProcessor = cp.sharedMemPerMultiprocessor;
  prop->sharedMemPerBlockOptin = cp.sharedMemPerBlockOptin;
  prop->regsPerMultiprocessor = cp.regsPerMultiprocessor;
  prop->isMultiGpuBoard = cp.isMultiGpuBoard;
  prop->canMapHostMemory = cp.canMapHostMemory;
  prop->integrated = cp.integrated;
  prop->cooperativeLaunch = cp.cooperativeLaunch;
  prop->ECCEnabled = cp.ECCEnabled;
  prop->managedMemory = cp.managedMemory;
  prop->concurrentManagedAccess = cp.concurrentManagedAccess;
  prop->pageableMemoryAccess = cp.pageableMemoryAccess;
  prop->memPitch = cp.memPitch;
  prop->gcnArch = cp.major * 10 + cp.minor;
  std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "sm_%d%d", cp.major, cp.minor);
  // Fields CUDA 13 dropped from cudaDeviceProp: read the attributes that
  // remain; 0 where a query fails. (The warp size is read the same way: the
  // token `warpSize` is this layer's constant from here on.)
  struct {
    int* field;
    cudaDeviceAttr attr;
  } const from_attributes[] = {
      {&prop->warpSize, cudaDevAttrWarpSize},
      {&prop->clockRate, cudaDevAttrClockRate},
      {&prop->memoryClockRate, cudaDevAttrMemoryClockRate},
      {&prop->computeMode, cudaDevAttrComputeMode},
      {&prop->kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout},
  };
  for (const auto& f : from_attributes) {
    if (cudaDeviceGetAttribute(f.field, f.attr, device) != cudaSuccess) {
      *f.field = 0;
      (void)cudaGetLastError();  // do not leave this query's error pending
    }
  }
  return hipSuccess;
}

// ---------------------------------------------------------------------------
// Memory.
// ---------------------------------------------------------------------------
inline hipError_t hipMalloc(void** ptr, size_t size) {
  return hip_on_cuda::to_hip(cudaMalloc(ptr, size));
}
template <class T>
inline hipError_t hipMalloc(T** ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void**>(ptr), size);
}
inline hipError_t hipFree(void* ptr) { return hip_on_cuda::to_hip(cudaFree(ptr)); }

inline hipError_t hipMallocManaged(void** ptr, size_t size,
                                   unsigned int flags = hipMemAttachGlobal) {
  return hip_on_cuda::to_hip(cudaMallocManaged(ptr, size, flags));
}
template <class T>
inline hipError_t hipMallocManaged(T** ptr, size_t size, unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}

inline hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags = hipHostMallocDefault) {
  const unsigned int cuda_flags =
      flags & (hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined);
  return hip_on_cuda::to_hip(cudaHostAlloc(ptr, size, cuda_flags));
}
template <class T>
inline hipError_t hipHostMalloc(T** ptr, size_t size, unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
inline hipError_t hipHostFree(void* ptr) { return hip_on_cuda::to_hip(cudaFreeHost(ptr)); }

inline hipError_t hipMemcpy(void* dst, const void* src, size_t size, hipMemcpyKind kind) {
  return hip_on_cuda::to_hip(cudaMemcpy(dst, src, size, static_cast<cudaMemcpyKind>(kind)));
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t size, hipMemcpyKind kind,
                                 hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(
      cudaMemcpyAsync(dst, src, size, static_cast<cudaMemcpyKind>(kind), stream));
}
// The module-API style copies (device pointers as hipDeviceptr_t).
inline hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void* src, size_t size) {
  return hip_on_cuda::to_hip(cudaMemcpy(dst, src, size, cudaMemcpyHostToDevice));
}
inline hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t size) {
  return hip_on_cuda::to_hip(cudaMemcpy(dst, src, size, cudaMemcpyDeviceToHost));
}
inline hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size) {
  return hip_on_cuda::to_hip(cudaMemcpy(dst, src, size, cudaMemcpyDeviceToDevice));
}
inline hipError_t hipMemset(void* dst, int value, size_t size) {
  return hip_on_cuda::to_hip(cudaMemset(dst, value, size));
}
inline hipError_t hipMemsetAsync(void* dst, int value, size_t size, hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(cudaMemsetAsync(dst, value, size, stream));
}
inline hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  return hip_on_cuda::to_hip(cudaMemGetInfo(free_bytes, total_bytes));
}
// CUDA 13 takes a cudaMemLocation; hipCpuDeviceId means host memory.
inline hipError_t hipMemPrefetchAsync(const void* ptr, size_t size, int device,
                                      hipStream_t stream = nullptr) {
  cudaMemLocation where{};
  if (device == hipCpuDeviceId) {
    where.type = cudaMemLocationTypeHost;
    where.id = 0;
  } else {
    where.type = cudaMemLocationTypeDevice;
    where.id = device;
  }
  return hip_on_cuda::to_hip(cudaMemPrefetchAsync(ptr, size, where, 0, stream));
}

// Symbols: pass the __device__/__constant__ variable itself (or
// HIP_SYMBOL(var), which is the same on both platforms). A `const void*`
// argument is taken to be the symbol's address already.
inline hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t size,
                                    size_t offset = 0, hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hip_on_cuda::to_hip(
      cudaMemcpyToSymbol(symbol, src, size, offset, static_cast<cudaMemcpyKind>(kind)));
}
template <class T>
inline hipError_t hipMemcpyToSymbol(const T& symbol, const void* src, size_t size,
                                    size_t offset = 0, hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol(static_cast<const void*>(&symbol), src, size, offset, kind);
}
inline hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t size,
                                         size_t offset, hipMemcpyKind kind,
                                         hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(cudaMemcpyToSymbolAsync(symbol, src, size, offset,
                                                     static_cast<cudaMemcpyKind>(kind), stream));
}
template <class T>
inline hipError_t hipMemcpyToSymbolAsync(const T& symbol, const void* src, size_t size,
                                         size_t offset, hipMemcpyKind kind,
                                         hipStream_t stream = nullptr) {
  return hipMemcpyToSymbolAsync(static_cast<const void*>(&symbol), src, size, offset, kind,
                                stream);
}
inline hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t size,
                                      size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hip_on_cuda::to_hip(
      cudaMemcpyFromSymbol(dst, symbol, size, offset, static_cast<cudaMemcpyKind>(kind)));
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t size, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), size, offset, kind);
}
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t size,
                                           size_t offset, hipMemcpyKind kind,
                                           hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(cudaMemcpyFromSymbolAsync(dst, symbol, size, offset,
                                                       static_cast<cudaMemcpyKind>(kind), stream));
}
template <class T>
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t size,
                                           size_t offset, hipMemcpyKind kind,
                                           hipStream_t stream = nullptr) {
  return hipMemcpyFromSymbolAsync(dst, static_cast<const void*>(&symbol), size, offset, kind,
                                  stream);
}
inline hipError_t hipGetSymbolAddress(void** dev_ptr, const void* symbol) {
  return hip_on_cuda::to_hip(cudaGetSymbolAddress(dev_ptr, symbol));
}
template <class T>
inline hipError_t hipGetSymbolAddress(void** dev_ptr, const T& symbol) {
  return hipGetSymbolAddress(dev_ptr, static_cast<const void*>(&symbol));
}

// ---------------------------------------------------------------------------
// Streams and events.
// ---------------------------------------------------------------------------
inline hipError_t hipStreamCreate(hipStream_t* stream) {
  return hip_on_cuda::to_hip(cudaStreamCreate(stream));
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return hip_on_cuda::to_hip(cudaStreamCreateWithFlags(stream, flags));
}
inline hipError_t hipStreamDestroy(hipStream_t stream) {
  return hip_on_cuda::to_hip(cudaStreamDestroy(stream));
}
inline hipError_t hipStreamSynchronize(hipStream_t stream) {
  return hip_on_cuda::to_hip(cudaStreamSynchronize(stream));
}
// Device memory shared between processes.
typedef cudaIpcMemHandle_t hipIpcMemHandle_t;
inline hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* ptr) {
  return hip_on_cuda::to_hip(cudaIpcGetMemHandle(handle, ptr));
}
// A host function run in stream order (HIP's hipHostFn_t is CUDA's).
typedef void (*hipHostFn_t)(void* user_data);
inline hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data) {
  return hip_on_cuda::to_hip(cudaLaunchHostFunc(stream, fn, user_data));
}
inline hipError_t hipStreamQuery(hipStream_t stream) {
  return hip_on_cuda::to_hip(cudaStreamQuery(stream));
}
inline hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags = 0) {
  return hip_on_cuda::to_hip(cudaStreamWaitEvent(stream, event, flags));
}
inline hipError_t hipEventCreate(hipEvent_t* event) {
  return hip_on_cuda::to_hip(cudaEventCreate(event));
}
inline hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned int flags) {
  return hip_on_cuda::to_hip(cudaEventCreateWithFlags(event, flags));
}
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(cudaEventRecord(event, stream));
}
inline hipError_t hipEventSynchronize(hipEvent_t event) {
  return hip_on_cuda::to_hip(cudaEventSynchronize(event));
}
inline hipError_t hipEventQuery(hipEvent_t event) {
  return hip_on_cuda::to_hip(cudaEventQuery(event));
}
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  return hip_on_cuda::to_hip(cudaEventElapsedTime(ms, start, stop));
}
inline hipError_t hipEventDestroy(hipEvent_t event) {
  return hip_on_cuda::to_hip(cudaEventDestroy(event));
}

// ---------------------------------------------------------------------------
// Graphs (stream capture), on CUDA 12+'s signatures.
// ---------------------------------------------------------------------------
inline hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  return hip_on_cuda::to_hip(
      cudaStreamBeginCapture(stream, static_cast<cudaStreamCaptureMode>(mode)));
}
inline hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status) {
  cudaStreamCaptureStatus s = cudaStreamCaptureStatusNone;
  const cudaError_t e = cudaStreamIsCapturing(stream, &s);
  *status = static_cast<hipStreamCaptureStatus>(s);
  return hip_on_cuda::to_hip(e);
}
inline hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
  return hip_on_cuda::to_hip(cudaStreamEndCapture(stream, graph));
}
// HIP's five-argument form. On failure the node at fault (if CUDA names one)
// goes to error_node and a one-line reason to the log buffer.
inline hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph,
                                      hipGraphNode_t* error_node = nullptr,
                                      char* log_buffer = nullptr, size_t buffer_size = 0) {
  cudaGraphInstantiateParams params{};
  params.flags = 0;
  const cudaError_t e = cudaGraphInstantiateWithParams(exec, graph, &params);
  if (error_node != nullptr) *error_node = params.errNode_out;
  if (log_buffer != nullptr && buffer_size > 0) {
    if (e == cudaSuccess) {
      log_buffer[0] = '\0';
    } else {
      std::snprintf(log_buffer, buffer_size, "graph instantiation failed: %s (result %d)",
                    cudaGetErrorString(e), static_cast<int>(params.result_out));
    }
  }
  return hip_on_cuda::to_hip(e);
}
inline hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph,
                                               unsigned long long flags) {
  return hip_on_cuda::to_hip(cudaGraphInstantiate(exec, graph, flags));
}
inline hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) {
  return hip_on_cuda::to_hip(cudaGraphLaunch(exec, stream));
}
inline hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
  return hip_on_cuda::to_hip(cudaGraphExecDestroy(exec));
}
inline hipError_t hipGraphDestroy(hipGraph_t graph) {
  return hip_on_cuda::to_hip(cudaGraphDestroy(graph));
}

// ---------------------------------------------------------------------------
// Kernels: launch, attributes, occupancy.
// ---------------------------------------------------------------------------
inline hipError_t hipLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                  size_t shared_mem_bytes = 0, hipStream_t stream = nullptr) {
  return hip_on_cuda::to_hip(cudaLaunchKernel(func, grid, block, args, shared_mem_bytes, stream));
}

struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  size_t sharedSizeBytes;
};
inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return hipErrorInvalidValue;
  cudaFuncAttributes ca;
  const cudaError_t e = cudaFuncGetAttributes(&ca, func);
  if (e != cudaSuccess) return hip_on_cuda::to_hip(e);
  attr->binaryVersion = ca.binaryVersion;
  attr->cacheModeCA = ca.cacheModeCA;
  attr->constSizeBytes = ca.constSizeBytes;
  attr->localSizeBytes = ca.localSizeBytes;
  attr->maxDynamicSharedSizeBytes = ca.maxDynamicSharedSizeBytes;
  attr->maxThreadsPerBlock = ca.maxThreadsPerBlock;
  attr->numRegs = ca.numRegs;
  attr->preferredShmemCarveout = ca.preferredShmemCarveout;
  attr->ptxVersion = ca.ptxVersion;
  attr->sharedSizeBytes = ca.sharedSizeBytes;
  return hipSuccess;
}
template <class F>
inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, F* func) {
  return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}
inline hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  return hip_on_cuda::to_hip(
      cudaFuncSetAttribute(func, static_cast<cudaFuncAttribute>(attr), value));
}
template <class F>
inline hipError_t hipFuncSetAttribute(F* func, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}

inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* func,
                                                               int block_size,
                                                               size_t dyn_shared_bytes = 0) {
  return hip_on_cuda::to_hip(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      num_blocks, func, block_size, dyn_shared_bytes));
}
template <class F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, F* func,
                                                               int block_size,
                                                               size_t dyn_shared_bytes = 0) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(
      num_blocks, reinterpret_cast<const void*>(func), block_size, dyn_shared_bytes);
}
// grid_size: the smallest grid that reaches full occupancy (CUDA's
// minGridSize); block_size: the block size that gives it.
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size,
                                                    const void* func, size_t dyn_shared_bytes = 0,
                                                    int block_size_limit = 0) {
  return hip_on_cuda::to_hip(cudaOccupancyMaxPotentialBlockSize(
      grid_size, block_size, func, dyn_shared_bytes, block_size_limit));
}
template <class F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, F* func,
                                                    size_t dyn_shared_bytes = 0,
                                                    int block_size_limit = 0) {
  return hipOccupancyMaxPotentialBlockSize(grid_size, block_size,
                                           reinterpret_cast<const void*>(func), dyn_shared_bytes,
                                           block_size_limit);
}

// ---------------------------------------------------------------------------
// Module API (code built at run time, e.g. by hipRTC), on the CUDA runtime's
// library API: a module is a cudaLibrary_t, a function a cudaKernel_t.
// ---------------------------------------------------------------------------
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void*)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void*)0x02)
#define HIP_LAUNCH_PARAM_END ((void*)0x03)

// image: a cubin, a fatbin or NUL-terminated PTX (PTX is JIT-compiled).
inline hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return hip_on_cuda::to_hip(
      cudaLibraryLoadData(module, image, nullptr, nullptr, 0, nullptr, nullptr, 0));
}
inline hipError_t hipModuleLoad(hipModule_t* module, const char* path) {
  return hip_on_cuda::to_hip(
      cudaLibraryLoadFromFile(module, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
}
inline hipError_t hipModuleUnload(hipModule_t module) {
  return hip_on_cuda::to_hip(cudaLibraryUnload(module));
}
// name: the kernel's symbol (extern "C" kernels keep their own name; for
// others use hiprtcGetLoweredName).
inline hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                       const char* name) {
  return hip_on_cuda::to_hip(cudaLibraryGetKernel(function, module, name));
}
inline hipError_t hipModuleGetGlobal(hipDeviceptr_t* dev_ptr, size_t* bytes, hipModule_t module,
                                     const char* name) {
  return hip_on_cuda::to_hip(cudaLibraryGetGlobal(dev_ptr, bytes, module, name));
}

// Arguments come either as kernel_params (one pointer per parameter) or as
// one packed buffer in `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER, pointer,
// HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END), laid out as the
// kernel's parameters are; the buffer is split with cudaFuncGetParamInfo.
inline hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int grid_x, unsigned int grid_y,
                                        unsigned int grid_z, unsigned int block_x,
                                        unsigned int block_y, unsigned int block_z,
                                        unsigned int shared_mem_bytes, hipStream_t stream,
                                        void** kernel_params, void** extra) {
  const void* func = reinterpret_cast<const void*>(f);
  const dim3 grid(grid_x, grid_y, grid_z);
  const dim3 block(block_x, block_y, block_z);
  if (extra == nullptr) {
    return hip_on_cuda::to_hip(
        cudaLaunchKernel(func, grid, block, kernel_params, shared_mem_bytes, stream));
  }
  if (kernel_params != nullptr) return hipErrorInvalidValue;  // one or the other
  char* buffer = nullptr;
  size_t buffer_size = 0;
  bool have_size = false;
  // HIP_LAUNCH_PARAM_END ends the list (a null pointer, CUDA's end marker, too).
  for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END && extra[i] != nullptr; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = static_cast<char*>(extra[i + 1]);
    } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      buffer_size = *static_cast<size_t*>(extra[i + 1]);
      have_size = true;
    } else {
      return hipErrorInvalidValue;
    }
  }
  if (buffer == nullptr || !have_size) return hipErrorInvalidValue;
  constexpr size_t kMaxParams = 4096;  // CUDA allows far fewer parameters
  void* args[kMaxParams];
  size_t count = 0;
  for (size_t index = 0; index < kMaxParams; ++index) {
    size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(func, index, &offset, &size) != cudaSuccess) {
      // Past the last parameter (or not a kernel: the launch below reports
      // that). Clear the query's error so that it does not linger.
      (void)cudaGetLastError();
      break;
    }
    if (offset + size > buffer_size) return hipErrorInvalidValue;
    args[count++] = buffer + offset;
  }
  return hip_on_cuda::to_hip(cudaLaunchKernel(func, grid, block, count == 0 ? nullptr : args,
                                              shared_mem_bytes, stream));
}
inline hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks,
                                                                     hipFunction_t f,
                                                                     int block_size,
                                                                     size_t dyn_shared_bytes) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(
      num_blocks, reinterpret_cast<const void*>(f), block_size, dyn_shared_bytes);
}
inline hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size,
                                                          hipFunction_t f,
                                                          size_t dyn_shared_bytes,
                                                          int block_size_limit) {
  return hipOccupancyMaxPotentialBlockSize(grid_size, block_size,
                                           reinterpret_cast<const void*>(f), dyn_shared_bytes,
                                           block_size_limit);
}

#endif  // HIP_ON_CUDA_HIP_RUNTIME_API_H
