// Device memory shared between two processes by file descriptor: the CUDA
// driver's virtual-memory-management calls (reached through dlopen, so a
// binary linking this starts on a machine with no driver). Legacy CUDA IPC
// handles cannot cross a sandbox's PID namespace; descriptors can.
//
//   judge:  Vmm vmm; auto m = vmm.Create(bytes); int fd = *vmm.Export(*m);
//   runner: auto m = vmm.Import(fd, size);       // m->ptr: the same memory
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_VMM_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_VMM_H_

#include <cstddef>
#include <cstdint>

#include "core/status.h"

namespace arena::hip2hip {

struct VmmMemory {
  uint64_t handle = 0;
  uint64_t ptr = 0;  // device address in this process
  size_t size = 0;   // rounded up to the allocation granularity
};

class Vmm {
 public:
  // The current CUDA context's device (the runtime's, once it is set up).
  static Result<Vmm> Open(int device);

  Result<VmmMemory> Create(size_t bytes) const;
  Result<int> Export(const VmmMemory& m) const;  // a new descriptor: close it
  Result<VmmMemory> Import(int fd, size_t size) const;
  void Release(const VmmMemory& m) const;

  size_t granularity() const { return granularity_; }

 private:
  struct Api;
  Status Map(VmmMemory* m) const;

  const Api* api_ = nullptr;
  int device_ = 0;
  size_t granularity_ = 0;
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_VMM_H_
