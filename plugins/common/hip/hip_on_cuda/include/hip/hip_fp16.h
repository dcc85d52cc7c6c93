// hip_on_cuda: half precision. HIP's __half / __half2 API (__float2half,
// __half2float, __hadd, __hmul, __hfma, __halves2half2, __low2float, ...)
// has CUDA's names and meanings, so this is cuda_fp16.h itself.
#ifndef HIP_ON_CUDA_HIP_FP16_H
#define HIP_ON_CUDA_HIP_FP16_H

#include "hip/nvidia_on_cuda/common.h"
#include "hip/nvidia_on_cuda/lift_shfl_names.h"
#include <cuda_fp16.h>
#include "hip/nvidia_on_cuda/restore_shfl_names.h"

#endif  // HIP_ON_CUDA_HIP_FP16_H
