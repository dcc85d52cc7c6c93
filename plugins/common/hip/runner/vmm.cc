#include "plugins/common/hip/runner/vmm.h"

#include <dlfcn.h>
#include <unistd.h>

#include <string>

#include <cuda.h>

namespace arena::hip2hip {

struct Vmm::Api {
  decltype(&::cuMemGetAllocationGranularity) granularity;
  decltype(&::cuMemCreate) create;
  decltype(&::cuMemExportToShareableHandle) export_handle;
  decltype(&::cuMemImportFromShareableHandle) import_handle;
  decltype(&::cuMemAddressReserve) reserve;
  decltype(&::cuMemMap) map;
  decltype(&::cuMemSetAccess) set_access;
  decltype(&::cuMemUnmap) unmap;
  decltype(&::cuMemAddressFree) address_free;
  decltype(&::cuMemRelease) release;
};

namespace {

Status Check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return OkStatus();
  return Internal(std::string(what) + " failed with CUDA error " + std::to_string(static_cast<int>(r)));
}

CUmemAllocationProp Prop(int device) {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

}  // namespace

Result<Vmm> Vmm::Open(int device) {
  static const Api* api = []() -> const Api* {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return nullptr;
    auto* a = new Api;
    bool all = true;
    auto get = [&](auto* slot, const char* name) {
      *slot = reinterpret_cast<std::remove_pointer_t<decltype(slot)>>(dlsym(lib, name));
      all &= *slot != nullptr;
    };
    get(&a->granularity, "cuMemGetAllocationGranularity");
    get(&a->create, "cuMemCreate");
    get(&a->export_handle, "cuMemExportToShareableHandle");
    get(&a->import_handle, "cuMemImportFromShareableHandle");
    get(&a->reserve, "cuMemAddressReserve");
    get(&a->map, "cuMemMap");
    get(&a->set_access, "cuMemSetAccess");
    get(&a->unmap, "cuMemUnmap");
    get(&a->address_free, "cuMemAddressFree");
    get(&a->release, "cuMemRelease");
    if (!all) {
      delete a;
      return nullptr;
    }
    return a;
  }();
  if (api == nullptr) return Unavailable("the CUDA driver's memory-sharing calls are not available");
  Vmm v;
  v.api_ = api;
  v.device_ = device;
  const CUmemAllocationProp p = Prop(device);
  ARENA_RETURN_IF_ERROR(Check(api->granularity(&v.granularity_, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                              "cuMemGetAllocationGranularity"));
  if (v.granularity_ == 0) v.granularity_ = 2 << 20;
  return v;
}

Result<uint64_t> Vmm::CreatePiece(size_t bytes) const {
  const CUmemAllocationProp p = Prop(device_);
  CUmemGenericAllocationHandle h = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->create(&h, bytes, &p, 0), "cuMemCreate"));
  return static_cast<uint64_t>(h);
}

Result<int> Vmm::ExportPiece(uint64_t handle) const {
  int fd = -1;
  ARENA_RETURN_IF_ERROR(Check(api_->export_handle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                              "cuMemExportToShareableHandle"));
  return fd;
}

Result<uint64_t> Vmm::ImportPiece(int fd) const {
  CUmemGenericAllocationHandle h = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->import_handle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                              "cuMemImportFromShareableHandle"));
  return static_cast<uint64_t>(h);
}

void Vmm::ReleasePiece(uint64_t handle) const { api_->release(handle); }

Result<uint64_t> Vmm::Reserve(size_t bytes) const {
  CUdeviceptr ptr = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->reserve(&ptr, bytes, 0, 0, 0), "cuMemAddressReserve"));
  return static_cast<uint64_t>(ptr);
}

Status Vmm::MapPiece(uint64_t ptr, size_t bytes, uint64_t handle) const {
  return Check(api_->map(ptr, bytes, 0, handle, 0), "cuMemMap");
}

Status Vmm::SetAccess(uint64_t ptr, size_t bytes) const {
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device_;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return Check(api_->set_access(ptr, bytes, &access, 1), "cuMemSetAccess");
}

void Vmm::UnmapPiece(uint64_t ptr, size_t bytes) const { api_->unmap(ptr, bytes); }

void Vmm::Unreserve(uint64_t ptr, size_t bytes) const { api_->address_free(ptr, bytes); }

}  // namespace arena::hip2hip
