// Host-side tensors of the hip2hip harness: drawing seeded inputs in a
// task's dtype, poisoning outputs, widening to double for the reference,
// and comparing with tolerances.
//
//   HostTensor x = DrawInput(spec, shape, seed);   // bytes in the dtype
//   Doubles wide = Widen(x);
#ifndef ARENA_PLUGINS_HIP2HIP_WORKER_TENSORS_H_
#define ARENA_PLUGINS_HIP2HIP_WORKER_TENSORS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/expr.h"
#include "core/status.h"
#include "plugins/common/hip/include/arena_hip.h"

namespace arena::hip2hip {

Result<ArenaDtype> ParseDtype(const std::string& name);
size_t DtypeSize(ArenaDtype dtype);
bool IsFloating(ArenaDtype dtype);
std::string DtypeName(ArenaDtype dtype);

// Memory of `bytes` bytes; from 2 MiB up, aligned to 2 MiB and offered to
// the kernel's transparent huge pages (MADV_HUGEPAGE), so that a buffer of
// gigabytes takes one page fault per 2 MiB when first written, and is
// given back as such, rather than one per 4 KiB.
void* AllocateHostBuffer(size_t bytes);
void FreeHostBuffer(void* p, size_t bytes);

// An allocator that leaves the elements it makes default-initialized (for
// bytes and doubles: not written). A buffer of gigabytes is then written
// once, by the parallel pass that fills it, not first zeroed on one core
// (with the first touch of every page on that core too).
template <typename T>
struct Uninitialized : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = Uninitialized<U>;
  };
  Uninitialized() = default;
  template <typename U>
  Uninitialized(const Uninitialized<U>&) noexcept {}  // NOLINT: as std::allocator
  T* allocate(size_t n) { return static_cast<T*>(AllocateHostBuffer(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { FreeHostBuffer(p, n * sizeof(T)); }
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using Bytes = std::vector<uint8_t, Uninitialized<uint8_t>>;
using Doubles = std::vector<double, Uninitialized<double>>;

struct HostTensor {
  ArenaDtype dtype = ARENA_FLOAT32;
  std::vector<int64_t> shape;
  int64_t numel = 0;
  Bytes bytes;
};

inline int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// A configuration's parameters, as numbers for shape expressions and as
// the ArenaParam list arena_run and arena_reference receive; `args` points
// into `names`, so it is moved, never copied.
struct ConfigParams {
  ParameterValues numeric;
  std::vector<std::string> names;
  std::vector<ArenaParam> args;

  explicit ConfigParams(const nlohmann::json& params);
  ConfigParams(const ConfigParams&) = delete;
  ConfigParams& operator=(const ConfigParams&) = delete;
};

// A task's CPU reference (reference.cpp's arena_reference).
using ReferenceFn = int (*)(const ArenaHostConstTensor*, int, ArenaHostTensor*, int, const ArenaParam*, int);

// `reference` run on `inputs` (in double, of `in_shapes`), its outputs of
// `out_shapes` in `*outputs`, NaN where it writes nothing; its return code
// (0: done).
int RunReference(ReferenceFn reference, const std::vector<Doubles>& inputs,
                 const std::vector<std::vector<int64_t>>& in_shapes,
                 const std::vector<std::vector<int64_t>>& out_shapes, const std::vector<ArenaParam>& params,
                 std::vector<Doubles>* outputs);

// A tensor's shape: its extents (expressions of the parameters) evaluated.
Result<std::vector<int64_t>> EvaluateShape(const std::vector<std::string>& extents, const ParameterValues& p);

// An input's init with its bounds ("low", "high", "mean", "std"; numbers or
// expressions of the parameters) evaluated, as DrawInput takes it.
Result<nlohmann::json> EvaluateInit(nlohmann::json init, const ParameterValues& p);

// Draws a tensor from `init` ({dist: normal|uniform|randint, ...}); bounds
// are already evaluated numbers.
Result<HostTensor> DrawInput(ArenaDtype dtype, const std::vector<int64_t>& shape,
                             const nlohmann::json& init, uint64_t seed);

// A tensor filled with the poison of its dtype (NaN, or the minimum integer).
HostTensor Poisoned(ArenaDtype dtype, const std::vector<int64_t>& shape);

// The values of `t` in double, on all cores.
Doubles Widen(const HostTensor& t);

// `n` NaNs, written on all cores (a reference's outputs before it runs:
// what it leaves unwritten stays NaN).
Doubles NaNs(int64_t n);

// A tensor of `dtype` and `shape`, zeroed.
HostTensor Empty(ArenaDtype dtype, const std::vector<int64_t>& shape);

struct Comparison {
  bool ok = true;
  std::string detail;
  double max_abs_err = 0;
  double max_rel_err = 0;
};

// Every element: |got - ref| <= atol + rtol * |ref|; NaN or Inf where the
// reference is finite fails; a non-finite reference must be reproduced.
Comparison Compare(const std::string& name, const HostTensor& got, const double* ref, double atol,
                   double rtol);
inline Comparison Compare(const std::string& name, const HostTensor& got, const std::vector<double>& ref,
                          double atol, double rtol) {
  return Compare(name, got, ref.data(), atol, rtol);
}
template <typename Alloc>
Comparison Compare(const std::string& name, const HostTensor& got, const std::vector<double, Alloc>& ref,
                   double atol, double rtol) {
  return Compare(name, got, ref.data(), atol, rtol);
}

// Default tolerances by dtype (atol = rtol).
double DefaultTolerance(ArenaDtype dtype);

std::string Fingerprint(const HostTensor& t);

// A tensor stored as raw little-endian bytes in its dtype (how the torch2hip
// reference hands inputs and float64 reference outputs over); the file must
// hold exactly numel * size bytes.
Result<HostTensor> ReadTensorFile(const std::string& path, ArenaDtype dtype,
                                  const std::vector<int64_t>& shape);
// A float64 file's values, read straight into them (ReadTensorFile's rule).
Result<Doubles> ReadFloat64File(const std::string& path, const std::vector<int64_t>& shape);
// `t`'s bytes, raw, at `path` (written beside it, then renamed there):
// what ReadTensorFile reads back.
Status WriteTensorFile(const std::string& path, const HostTensor& t);

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_WORKER_TENSORS_H_
