// The CUDA runtime names the HIP judge and runner use, on ROCm's HIP
// runtime: the harness's own host code (plugins/common/hip/worker, runner)
// is written once against CUDA and built for AMD GPUs with this folder
// first on the include path (targets *_rocm in plugins/common/hip). Only
// the names that code uses are here: a new one fails the ROCm build in CI
// until it is mapped. The reverse of hip_on_cuda, which serves subjects.
#ifndef ARENA_PLUGINS_COMMON_HIP_ROCM_CUDA_RUNTIME_API_H_
#define ARENA_PLUGINS_COMMON_HIP_ROCM_CUDA_RUNTIME_API_H_

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#define ARENA_ROCM 1

// Types and constants.
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaStream_t hipStream_t
#define cudaEvent_t hipEvent_t
#define cudaGraph_t hipGraph_t
#define cudaGraphExec_t hipGraphExec_t
#define cudaGraphNode_t hipGraphNode_t
#define cudaMemsetParams hipMemsetParams
#define cudaDeviceProp hipDeviceProp_t
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamCaptureModeRelaxed hipStreamCaptureModeRelaxed
#define cudaHostRegisterDefault hipHostRegisterDefault
#define cudaDevAttrL2CacheSize hipDeviceAttributeL2CacheSize

// Errors after which the device is unusable. HIP reports a misaligned
// address, an illegal instruction, a hardware stack error and an invalid
// program counter as a launch failure.
#define cudaErrorIllegalAddress hipErrorIllegalAddress
#define cudaErrorLaunchFailure hipErrorLaunchFailure
#define cudaErrorMisalignedAddress hipErrorLaunchFailure
#define cudaErrorIllegalInstruction hipErrorLaunchFailure
#define cudaErrorHardwareStackError hipErrorLaunchFailure
#define cudaErrorInvalidPc hipErrorLaunchFailure
#define cudaErrorAssert hipErrorAssert
#define cudaErrorLaunchTimeout hipErrorLaunchTimeOut

// Calls with the same arguments.
#define cudaGetErrorName hipGetErrorName
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaSetDevice hipSetDevice
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaMemGetInfo hipMemGetInfo
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemcpy2D hipMemcpy2D
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemset hipMemset
#define cudaMemsetAsync hipMemsetAsync
#define cudaHostRegister hipHostRegister
#define cudaHostUnregister hipHostUnregister
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamBeginCapture hipStreamBeginCapture
#define cudaStreamEndCapture hipStreamEndCapture
#define cudaGraphLaunch hipGraphLaunch
#define cudaGraphDestroy hipGraphDestroy
#define cudaGraphCreate hipGraphCreate
#define cudaGraphAddChildGraphNode hipGraphAddChildGraphNode
#define cudaGraphAddMemsetNode hipGraphAddMemsetNode
#define cudaGraphExecMemsetNodeSetParams hipGraphExecMemsetNodeSetParams
#define cudaGraphExecDestroy hipGraphExecDestroy
#define cudaEventCreate hipEventCreate
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventElapsedTime hipEventElapsedTime

// Calls whose arguments differ.
inline hipError_t cudaGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long /*flags*/) {
  return hipGraphInstantiate(exec, graph, nullptr, nullptr, 0);
}

// AMD GPUs keep no L2 lines persisting across accesses: nothing to reset.
inline hipError_t cudaCtxResetPersistingL2Cache() { return hipSuccess; }

// Code loaded at run time (the judge's own input generator, compiled by
// hipRTC): a module and its functions, launched as module functions.
#define cudaLibrary_t hipModule_t
#define cudaKernel_t hipFunction_t
inline hipError_t cudaLibraryLoadData(hipModule_t* module, const void* image, void*, void*, unsigned, void*,
                                      void*, unsigned) {
  return hipModuleLoadData(module, image);
}
inline hipError_t cudaLibraryGetKernel(hipFunction_t* f, hipModule_t module, const char* name) {
  return hipModuleGetFunction(f, module, name);
}
inline hipError_t cudaLaunchKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                                   hipStream_t stream) {
  return hipModuleLaunchKernel(reinterpret_cast<hipFunction_t>(const_cast<void*>(f)), grid.x, grid.y, grid.z,
                               block.x, block.y, block.z, static_cast<unsigned>(shared), stream, args, nullptr);
}

#endif  // ARENA_PLUGINS_COMMON_HIP_ROCM_CUDA_RUNTIME_API_H_
