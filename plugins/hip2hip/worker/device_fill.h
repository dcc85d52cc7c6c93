// Fresh random inputs drawn on the GPU by the judge, straight into the
// memory it lends a subject: the rounds of a timing each get data no one
// has seen (a pool drawn once on the host would be learnt by a subject
// over the rounds, and outputs cached by content). The kernel is the
// judge's own, compiled with NVRTC on first use; it draws the task's
// distributions (normal, uniform, randint) like the host's DrawInput, from
// a counter-based generator keyed by a secret seed.
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
#include "plugins/hip2hip/include/arena_hip.h"

namespace arena::hip2hip {

// The generator's PTX for a virtual architecture ("compute_90").
Result<std::string> DeviceFillPtx(const std::string& arch);

class DeviceFill {
 public:
  static Result<DeviceFill> Create(int device);

  // `sets` tensors of `numel` elements of `dtype`, the k-th at
  // base + k * stride, drawn from `init` ({"dist": ..., bounds as numbers})
  // and `seed`; on the legacy default stream, waited for.
  Status Fill(void* base, size_t stride, size_t sets, size_t numel, ArenaDtype dtype,
              const nlohmann::json& init, uint64_t seed) const;

 private:
  const void* kernel_ = nullptr;
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_WORKER_DEVICE_FILL_H_
