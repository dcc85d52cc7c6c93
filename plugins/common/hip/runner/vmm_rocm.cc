// Vmm (vmm.h) on ROCm: the HIP runtime's virtual-memory-management calls,
// which mirror the CUDA driver's. Linked, not loaded by name: a ROCm
// runner or judge needs the HIP runtime anyway.
#include <unistd.h>

#include <algorithm>
#include <string>

#include <hip/hip_runtime_api.h>

#include "plugins/common/hip/runner/vmm.h"

namespace arena::hip2hip {

struct Vmm::Api {};

namespace {

Status Check(hipError_t r, const char* what) {
  if (r == hipSuccess) return OkStatus();
  return Internal(std::string(what) + " failed: " + hipGetErrorName(r) + ": " + hipGetErrorString(r));
}

hipMemAllocationProp Prop(int device) {
  hipMemAllocationProp p{};
  p.type = hipMemAllocationTypePinned;
  p.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  p.location.type = hipMemLocationTypeDevice;
  p.location.id = device;
  return p;
}

hipMemGenericAllocationHandle_t Handle(uint64_t h) { return reinterpret_cast<hipMemGenericAllocationHandle_t>(h); }

}  // namespace

Result<Vmm> Vmm::Open(int device) {
  static const Api api;
  Vmm v;
  v.api_ = &api;
  v.device_ = device;
  const hipMemAllocationProp p = Prop(device);
  ARENA_RETURN_IF_ERROR(Check(hipMemGetAllocationGranularity(&v.granularity_, &p, hipMemAllocationGranularityMinimum),
                              "hipMemGetAllocationGranularity"));
  if (v.granularity_ == 0) v.granularity_ = 2 << 20;
  return v;
}

Result<uint64_t> Vmm::CreatePiece(size_t bytes) const {
  const hipMemAllocationProp p = Prop(device_);
  hipMemGenericAllocationHandle_t h = nullptr;
  ARENA_RETURN_IF_ERROR(Check(hipMemCreate(&h, bytes, &p, 0), "hipMemCreate"));
  return reinterpret_cast<uint64_t>(h);
}

Result<int> Vmm::ExportPiece(uint64_t handle) const {
  int fd = -1;
  ARENA_RETURN_IF_ERROR(
      Check(hipMemExportToShareableHandle(&fd, Handle(handle), hipMemHandleTypePosixFileDescriptor, 0),
            "hipMemExportToShareableHandle"));
  return fd;
}

Result<uint64_t> Vmm::ImportPiece(int fd) const {
  hipMemGenericAllocationHandle_t h = nullptr;
  ARENA_RETURN_IF_ERROR(Check(hipMemImportFromShareableHandle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                              hipMemHandleTypePosixFileDescriptor),
                              "hipMemImportFromShareableHandle"));
  return reinterpret_cast<uint64_t>(h);
}

void Vmm::ReleasePiece(uint64_t handle) const { hipMemRelease(Handle(handle)); }

Result<uint64_t> Vmm::Reserve(size_t bytes) const {
  void* ptr = nullptr;
  ARENA_RETURN_IF_ERROR(Check(hipMemAddressReserve(&ptr, bytes, 0, nullptr, 0), "hipMemAddressReserve"));
  return reinterpret_cast<uint64_t>(ptr);
}

Status Vmm::MapPiece(uint64_t ptr, size_t bytes, uint64_t handle) const {
  return Check(hipMemMap(reinterpret_cast<void*>(ptr), bytes, 0, Handle(handle), 0), "hipMemMap");
}

Status Vmm::SetAccess(uint64_t ptr, size_t bytes) const {
  hipMemAccessDesc access{};
  access.location.type = hipMemLocationTypeDevice;
  access.location.id = device_;
  access.flags = hipMemAccessFlagsProtReadWrite;
  return Check(hipMemSetAccess(reinterpret_cast<void*>(ptr), bytes, &access, 1), "hipMemSetAccess");
}

void Vmm::UnmapPiece(uint64_t ptr, size_t bytes) const { hipMemUnmap(reinterpret_cast<void*>(ptr), bytes); }

void Vmm::Unreserve(uint64_t ptr, size_t bytes) const { hipMemAddressFree(reinterpret_cast<void*>(ptr), bytes); }

}  // namespace arena::hip2hip
