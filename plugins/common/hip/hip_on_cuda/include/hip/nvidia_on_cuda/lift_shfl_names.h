// hip_on_cuda: lifts HIP's __shfl renaming macros (device_functions.h) until
// nvidia_on_cuda/restore_shfl_names.h. Around an include of cuda_fp16.h or
// cuda_bf16.h: in nvcc's host pass they declare CUDA's legacy (deprecated)
// __shfl overloads, which must keep their own names. No include guard: it is
// meant to be included once per such region.
#pragma push_macro("__shfl")
#pragma push_macro("__shfl_up")
#pragma push_macro("__shfl_down")
#pragma push_macro("__shfl_xor")
#undef __shfl
#undef __shfl_up
#undef __shfl_down
#undef __shfl_xor
