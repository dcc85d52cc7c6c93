// hip_on_cuda: ends a region opened by nvidia_on_cuda/lift_shfl_names.h.
// No include guard: it is meant to be included once per such region.
#pragma pop_macro("__shfl_xor")
#pragma pop_macro("__shfl_down")
#pragma pop_macro("__shfl_up")
#pragma pop_macro("__shfl")
