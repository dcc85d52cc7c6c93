// The CUDA calls that launch GPU work, as CUPTI's callback ids: every way a
// kernel starts (runtime or driver API, ordinary, extended or cooperative,
// per-thread default stream or not) and a graph's launch; the calls
// that make host memory the GPU can reach or hand device memory to another
// process; and those that leave work to start later, off the clock.
// Shared by the observers that run inside a subject's process.
#ifndef ARENA_PLUGINS_COMMON_HIP_RUNNER_CUPTI_LAUNCHES_H_
#define ARENA_PLUGINS_COMMON_HIP_RUNNER_CUPTI_LAUNCHES_H_

#include <cstddef>

#include <cupti.h>

namespace arena::cupti {

inline constexpr CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
};
inline constexpr CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
};
inline constexpr CUpti_CallbackId kDriverGraphLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

// Host memory the device can reach: a kernel could copy the inputs there
// for the host to compute on.
inline constexpr CUpti_CallbackId kDriverHostMemory[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc,        CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost,        CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister,     CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged,
};
inline constexpr CUpti_CallbackId kRuntimeHostMemory[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000,
};
// Device memory handed to another process: a process of the subject's own
// (started from its runner) has no observer, and its work on the memory
// it imports would not be seen. The runner itself only imports.
inline constexpr CUpti_CallbackId kDriverExport[] = {
    CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle,
    CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle,
    CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportToShareableHandle,
    CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportPointer,
};
inline constexpr CUpti_CallbackId kRuntimeExport[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetMemHandle_v4010,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportToShareableHandle_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportPointer_v11020,
};

// Work that starts later without a launch, or that the runner's
// synchronisation does not wait for: a stream made to wait on a memory
// value or an external semaphore (the judge's own writes of a round's
// inputs or poison would start it while every runner is stopped, off the
// clock), and a context of the subject's own (its streams are not the
// runner's context's, so the runner's device-wide wait at the end of a
// call does not wait for them). The runner itself makes none of these.
inline constexpr CUpti_CallbackId kDriverDeferred[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32,        CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2,     CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64,        CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2,     CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp,         CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2,      CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphAddBatchMemOpNode,   CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync,
    CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuCtxCreate,                CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3,             CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4,
    CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate,
};
inline constexpr CUpti_CallbackId kRuntimeDeferred[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v11020,
};

// f(domain, id) for every launch call above (a graph's included), each
// one called; whether every one returned true.
template <typename F>
bool ForEachLaunchCallback(F&& f) {
  bool ok = true;
  for (CUpti_CallbackId id : kDriverLaunches) ok &= f(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kDriverGraphLaunches) ok &= f(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kRuntimeLaunches) ok &= f(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  return ok;
}

// The same for the calls that make host memory the GPU can reach or
// export device memory.
template <typename F>
bool ForEachMemoryCallback(F&& f) {
  bool ok = true;
  for (CUpti_CallbackId id : kDriverHostMemory) ok &= f(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kDriverExport) ok &= f(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kRuntimeHostMemory) ok &= f(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  for (CUpti_CallbackId id : kRuntimeExport) ok &= f(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  return ok;
}

// The same for the calls of deferred work.
template <typename F>
bool ForEachDeferredCallback(F&& f) {
  bool ok = true;
  for (CUpti_CallbackId id : kDriverDeferred) ok &= f(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id : kRuntimeDeferred) ok &= f(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  return ok;
}

template <size_t N>
bool In(CUpti_CallbackId id, const CUpti_CallbackId (&ids)[N]) {
  for (CUpti_CallbackId x : ids) {
    if (x == id) return true;
  }
  return false;
}

}  // namespace arena::cupti

#endif  // ARENA_PLUGINS_COMMON_HIP_RUNNER_CUPTI_LAUNCHES_H_
