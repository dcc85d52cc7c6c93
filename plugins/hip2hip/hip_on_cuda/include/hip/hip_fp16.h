// hip_on_cuda: half precision. HIP's __half / __half2 API (__float2half,
// __half2float, __hadd, __hmul, __hfma, __halves2half2, __low2float, ...)
// has CUDA's names and meanings, so this is cuda_fp16.h itself.
#ifndef HIP_ON_CUDA_HIP_FP16_H
#define HIP_ON_CUDA_HIP_FP16_H

#include "hip/nvidia_on_cuda/common.h"
// In nvcc's host pass this header declares CUDA's legacy (deprecated)
// __shfl overloads, which must keep their own names: HIP's renaming macros
// (nvidia_on_cuda/device_functions.h) are lifted around it.
#pragma push_macro("__shfl")
#pragma push_macro("__shfl_up")
#pragma push_macro("__shfl_down")
#pragma push_macro("__shfl_xor")
#undef __shfl
#undef __shfl_up
#undef __shfl_down
#undef __shfl_xor
#include <cuda_fp16.h>
#pragma pop_macro("__shfl_xor")
#pragma pop_macro("__shfl_down")
#pragma pop_macro("__shfl_up")
#pragma pop_macro("__shfl")

#endif  // HIP_ON_CUDA_HIP_FP16_H
