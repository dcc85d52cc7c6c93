// The NVRTC names the judge's input generator uses, on ROCm's hipRTC (see
// cuda_runtime_api.h here). The generator's "PTX" is then an AMD code
// object for the architecture given (--gpu-architecture=gfx90a).
#ifndef ARENA_PLUGINS_COMMON_HIP_ROCM_NVRTC_H_
#define ARENA_PLUGINS_COMMON_HIP_ROCM_NVRTC_H_

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hiprtc.h>

#define nvrtcResult hiprtcResult
#define nvrtcProgram hiprtcProgram
#define NVRTC_SUCCESS HIPRTC_SUCCESS
#define nvrtcCreateProgram hiprtcCreateProgram
#define nvrtcCompileProgram hiprtcCompileProgram
#define nvrtcDestroyProgram hiprtcDestroyProgram
#define nvrtcGetProgramLogSize hiprtcGetProgramLogSize
#define nvrtcGetProgramLog hiprtcGetProgramLog
#define nvrtcGetPTXSize hiprtcGetCodeSize
#define nvrtcGetPTX hiprtcGetCode

#endif  // ARENA_PLUGINS_COMMON_HIP_ROCM_NVRTC_H_
