// Shared by the hip_on_cuda tests: portable HIP, compiled by nvcc through
// hip_on_cuda and by hipcc through ROCm's headers.
//
// Each test prints "PASS name" or "FAIL name"; main() returns
//   0            every check passed,
//   1            a check failed,
//   kNoGpuExit   no usable GPU: the host-only checks ran, the rest did not
//                ("no GPU: ..." is printed).
#ifndef HIP_ON_CUDA_TESTS_HIP_TEST_UTIL_H
#define HIP_ON_CUDA_TESTS_HIP_TEST_UTIL_H

#include <hip/hip_runtime.h>

#include <cstdio>

namespace hiptest {

constexpr int kNoGpuExit = 3;

struct Counts {
  int passed = 0;
  int failed = 0;
};
inline Counts& counts() {
  static Counts c;
  return c;
}

inline bool report(const char* name, bool ok) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", name);
  std::fflush(stdout);
  (ok ? counts().passed : counts().failed)++;
  return ok;
}

// Prints a failed HIP call; returns whether it succeeded.
inline bool call_ok(hipError_t e, const char* what, const char* file, int line) {
  if (e == hipSuccess) return true;
  std::printf("  %s:%d: %s returned %s: %s\n", file, line, what, hipGetErrorName(e),
              hipGetErrorString(e));
  return false;
}

// A condition that explains itself when false.
inline bool expect(bool cond, const char* what, const char* file, int line) {
  if (!cond) std::printf("  %s:%d: expected %s\n", file, line, what);
  return cond;
}

// True when a device can be used; otherwise prints why, once.
inline bool gpu_available() {
  int n = 0;
  const hipError_t e = hipGetDeviceCount(&n);
  if (e != hipSuccess || n == 0) {
    std::printf("no GPU: hipGetDeviceCount gave %s (%s); device checks not run\n",
                hipGetErrorName(e), e == hipSuccess ? "0 devices" : hipGetErrorString(e));
    std::fflush(stdout);
    return false;
  }
  return true;
}

inline int finish(const char* suite) {
  std::printf("%s: %d passed, %d failed\n", suite, counts().passed, counts().failed);
  return counts().failed == 0 ? 0 : 1;
}

inline int finish_without_gpu(const char* suite) {
  std::printf("%s: %d passed, %d failed (no GPU)\n", suite, counts().passed, counts().failed);
  return counts().failed == 0 ? kNoGpuExit : 1;
}

}  // namespace hiptest

// Inside a test body that accumulates `ok`.
#define HT_CALL(call) (ok = hiptest::call_ok((call), #call, __FILE__, __LINE__) && ok)
#define HT_EXPECT(cond) (ok = hiptest::expect((cond), #cond, __FILE__, __LINE__) && ok)
// A call the rest of the test depends on: on failure, report `name` failed.
#define HT_REQUIRE(call)                                             \
  do {                                                               \
    if (!hiptest::call_ok((call), #call, __FILE__, __LINE__)) {      \
      return hiptest::report(name, false);                           \
    }                                                                \
  } while (0)

#endif  // HIP_ON_CUDA_TESTS_HIP_TEST_UTIL_H
