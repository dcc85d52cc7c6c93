// Fresh random inputs drawn on the GPU by the judge, straight into the
// memory it lends a subject: the rounds of a timing each get data no one
// has seen (a pool drawn once on the host would be learnt by a subject
// over the rounds, and outputs cached by content). The kernel is the
// judge's own, compiled with NVRTC on first use; it draws the task's
// distributions (normal, uniform, randint) like the host's DrawInput, from
// a counter-based generator keyed by a secret seed (in single precision
// below 64-bit dtypes). It also gathers strided samples of device memory
// into a packed buffer, for one copy to the host, and tells whether two
// ranges of device memory differ (a subject that modified its inputs).
//
//   ARENA_ASSIGN_OR_RETURN(DeviceFill fill, DeviceFill::Create(device));
//   ARENA_RETURN_IF_ERROR(fill.Fill(base, stride, sets, numel, dtype, init, seed));
#ifndef ARENA_PLUGINS_HIP2HIP_WORKER_DEVICE_FILL_H_
#define ARENA_PLUGINS_HIP2HIP_WORKER_DEVICE_FILL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "plugins/common/hip/include/arena_hip.h"

namespace arena::hip2hip {

// The generator's source (CUDA C++, compiled at run time).
const char* DeviceFillSource();

// The generator's PTX for a virtual architecture ("compute_90"); built for
// ROCm (plugins/common/hip/rocm), its code object for an AMD target ("gfx90a").
Result<std::string> DeviceFillPtx(const std::string& arch);

class DeviceFill {
 public:
  static Result<DeviceFill> Create(int device);

  // `sets` tensors of `numel` elements of `dtype`, the k-th at
  // base + k * stride, drawn from `init` ({"dist": ..., bounds as numbers})
  // and `seed`; on the legacy default stream, waited for. Set k is drawn
  // from `seed` and first_set + k alone: Fill(..., seed, j) with one set
  // draws again what set j of a larger draw held.
  Status Fill(void* base, size_t stride, size_t sets, size_t numel, ArenaDtype dtype,
              const nlohmann::json& init, uint64_t seed, size_t first_set = 0) const;

  // `count` elements of `element_size` bytes, every `stride`-th from `src`
  // (device memory), packed at `dst` (device memory); waited for.
  Status Gather(const void* src, size_t stride, size_t count, size_t element_size, void* dst) const;

  // Whether the `bytes` bytes at `a` and `b` (device memory) differ.
  Result<bool> Differs(const void* a, const void* b, size_t bytes) const;

 private:
  Status SelfCheck() const;

  const void* kernel_ = nullptr;
  const void* gather_ = nullptr;
  const void* differs_ = nullptr;
  void* flag_ = nullptr;  // Differs' answer, on the device
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_WORKER_DEVICE_FILL_H_
