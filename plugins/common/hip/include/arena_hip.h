// The C ABI between the hip2hip harness and a task's code.
//
// A candidate (the editable kernel.hip) defines
//
//   extern "C" int arena_run(const ArenaTensor* inputs, int num_inputs,
//                            ArenaTensor* outputs, int num_outputs,
//                            const ArenaParam* params, int num_params,
//                            hipStream_t stream);
//
// Tensors are device memory owned by the harness (allocated, seeded and
// poisoned by it), in the order of task.yaml's interface; parameters are the
// configuration's, by name. All work must be launched on `stream`. Return 0,
// or non-zero to report an error.
//
// A task's reference (reference.cpp, compiled for the CPU) defines
//
//   extern "C" int arena_reference(const ArenaHostConstTensor* inputs, int num_inputs,
//                                  ArenaHostTensor* outputs, int num_outputs,
//                                  const ArenaParam* params, int num_params);
//
// over host copies widened to double (integer tensors too), writing doubles.
// The harness calls it for several trials at once from different threads:
// it must keep no mutable global or static state.
#ifndef ARENA_HIP_H_
#define ARENA_HIP_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  ARENA_FLOAT32 = 0,
  ARENA_FLOAT16 = 1,
  ARENA_BFLOAT16 = 2,
  ARENA_FLOAT64 = 3,
  ARENA_INT8 = 4,
  ARENA_UINT8 = 5,
  ARENA_INT16 = 6,
  ARENA_INT32 = 7,
  ARENA_INT64 = 8,
  ARENA_BOOL = 9,
} ArenaDtype;

#define ARENA_MAX_DIMS 8

typedef struct {
  void* data;  // device memory
  ArenaDtype dtype;
  int ndim;
  int64_t shape[ARENA_MAX_DIMS];  // contiguous, row-major
  int64_t numel;
} ArenaTensor;

typedef struct {
  const double* data;  // host memory, widened to double
  int ndim;
  int64_t shape[ARENA_MAX_DIMS];
  int64_t numel;
} ArenaHostConstTensor;

typedef struct {
  double* data;
  int ndim;
  int64_t shape[ARENA_MAX_DIMS];
  int64_t numel;
} ArenaHostTensor;

typedef struct {
  const char* name;
  double value;
} ArenaParam;

#if !defined(__CUDACC_RTC__)  // host code: runtime compilation takes device code only
// The value of parameter `name`, or `fallback` if the configuration has none.
static inline double arena_param(const ArenaParam* params, int num_params, const char* name,
                                 double fallback) {
  for (int i = 0; i < num_params; ++i) {
    if (strcmp(params[i].name, name) == 0) return params[i].value;
  }
  return fallback;
}
#endif  // !__CUDACC_RTC__

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // ARENA_HIP_H_
