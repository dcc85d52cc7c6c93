// The CUDA calls that launch GPU work, as CUPTI's callback ids: every way a
// kernel starts (runtime or driver API, ordinary, extended or cooperative,
// per-thread default stream or not) and a graph's launch. Shared by the
// observers that run inside a subject's process.
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

template <size_t N>
bool In(CUpti_CallbackId id, const CUpti_CallbackId (&ids)[N]) {
  for (CUpti_CallbackId x : ids) {
    if (x == id) return true;
  }
  return false;
}

}  // namespace arena::cupti

#endif  // ARENA_PLUGINS_COMMON_HIP_RUNNER_CUPTI_LAUNCHES_H_
