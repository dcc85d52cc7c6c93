// hip_on_cuda: bfloat16.
//
//   hip_bfloat16    HIP's struct: 16 bits in `data`, explicit construction
//                   from float (round to nearest even), implicit conversion
//                   to float, arithmetic and comparisons through float.
//                   Stored exactly as __nv_bfloat16, and converts to and
//                   from it explicitly.
//   __hip_bfloat16  the newer HIP type: CUDA's __nv_bfloat16 itself, with
//                   CUDA's functions (__float2bfloat16, __bfloat162float,
//                   __hadd, ...), which have the same names in HIP.
//
// The block between the marker lines is also in hipRTC's in-memory
// "hip/hip_bfloat16.h": after editing it, run tests/prelude_sync_test.sh
// --write to regenerate nvidia_on_cuda/rtc_prelude.h.
#ifndef HIP_ON_CUDA_HIP_BFLOAT16_H
#define HIP_ON_CUDA_HIP_BFLOAT16_H

#include "hip/nvidia_on_cuda/common.h"
#include "hip/nvidia_on_cuda/lift_shfl_names.h"
#include <cuda_bf16.h>
#include "hip/nvidia_on_cuda/restore_shfl_names.h"
#if !defined(__CUDACC_RTC__)
#include <ostream>
#endif

// >>> hip_on_cuda shared bfloat16 source: begin
#ifndef HIP_ON_CUDA_SHARED_BFLOAT16_SOURCE
#define HIP_ON_CUDA_SHARED_BFLOAT16_SOURCE 1

typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;

struct hip_bfloat16 {
  unsigned short data;

  hip_bfloat16() = default;
  __host__ __device__ explicit hip_bfloat16(float f) : data(bits_of(__float2bfloat16(f))) {}
  __host__ __device__ explicit hip_bfloat16(__nv_bfloat16 b) : data(bits_of(b)) {}

  __host__ __device__ operator float() const { return __bfloat162float(to_nv()); }
  __host__ __device__ explicit operator __nv_bfloat16() const { return to_nv(); }

  __host__ __device__ static hip_bfloat16 round_to_bfloat16(float f) { return hip_bfloat16(f); }

 private:
  __host__ __device__ static unsigned short bits_of(__nv_bfloat16 b) {
    return static_cast<__nv_bfloat16_raw>(b).x;
  }
  __host__ __device__ __nv_bfloat16 to_nv() const {
    __nv_bfloat16_raw raw;
    raw.x = data;
    return __nv_bfloat16(raw);
  }
};

static_assert(sizeof(hip_bfloat16) == sizeof(__nv_bfloat16), "hip_bfloat16 is 16 bits");

inline __host__ __device__ hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
inline __host__ __device__ hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data = static_cast<unsigned short>(a.data ^ 0x8000u);
  return a;
}
inline __host__ __device__ hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) + float(b));
}
inline __host__ __device__ hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) - float(b));
}
inline __host__ __device__ hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) * float(b));
}
inline __host__ __device__ hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) / float(b));
}
inline __host__ __device__ hip_bfloat16& operator+=(hip_bfloat16& a, hip_bfloat16 b) {
  return a = a + b;
}
inline __host__ __device__ hip_bfloat16& operator-=(hip_bfloat16& a, hip_bfloat16 b) {
  return a = a - b;
}
inline __host__ __device__ hip_bfloat16& operator*=(hip_bfloat16& a, hip_bfloat16 b) {
  return a = a * b;
}
inline __host__ __device__ hip_bfloat16& operator/=(hip_bfloat16& a, hip_bfloat16 b) {
  return a = a / b;
}
inline __host__ __device__ bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline __host__ __device__ bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) != float(b); }
inline __host__ __device__ bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline __host__ __device__ bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) <= float(b); }
inline __host__ __device__ bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return float(a) > float(b); }
inline __host__ __device__ bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) >= float(b); }

#endif  // HIP_ON_CUDA_SHARED_BFLOAT16_SOURCE
// <<< hip_on_cuda shared bfloat16 source: end

#if !defined(__CUDACC_RTC__)
inline std::ostream& operator<<(std::ostream& os, const hip_bfloat16& b) { return os << float(b); }
#endif

#endif  // HIP_ON_CUDA_HIP_BFLOAT16_H
