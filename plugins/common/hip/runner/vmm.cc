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

Status Vmm::Map(VmmMemory* m) const {
  CUdeviceptr ptr = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->reserve(&ptr, m->size, 0, 0, 0), "cuMemAddressReserve"));
  Status s = Check(api_->map(ptr, m->size, 0, m->handle, 0), "cuMemMap");
  if (s.ok()) {
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = device_;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    s = Check(api_->set_access(ptr, m->size, &access, 1), "cuMemSetAccess");
    if (!s.ok()) api_->unmap(ptr, m->size);
  }
  if (!s.ok()) {
    api_->address_free(ptr, m->size);
    return s;
  }
  m->ptr = ptr;
  return OkStatus();
}

Result<VmmMemory> Vmm::Create(size_t bytes) const {
  VmmMemory m;
  m.size = (std::max<size_t>(bytes, 1) + granularity_ - 1) / granularity_ * granularity_;
  const CUmemAllocationProp p = Prop(device_);
  CUmemGenericAllocationHandle h = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->create(&h, m.size, &p, 0), "cuMemCreate"));
  m.handle = h;
  if (Status s = Map(&m); !s.ok()) {
    api_->release(h);
    return s;
  }
  return m;
}

Result<int> Vmm::Export(const VmmMemory& m) const {
  int fd = -1;
  ARENA_RETURN_IF_ERROR(Check(api_->export_handle(&fd, m.handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                              "cuMemExportToShareableHandle"));
  return fd;
}

Result<VmmMemory> Vmm::Import(int fd, size_t size) const {
  if (size == 0 || size % granularity_ != 0) return InvalidArgument("a shared size off the granularity");
  VmmMemory m;
  m.size = size;
  CUmemGenericAllocationHandle h = 0;
  ARENA_RETURN_IF_ERROR(Check(api_->import_handle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                              "cuMemImportFromShareableHandle"));
  m.handle = h;
  if (Status s = Map(&m); !s.ok()) {
    api_->release(h);
    return s;
  }
  return m;
}

void Vmm::Release(const VmmMemory& m) const {
  if (m.ptr != 0) {
    api_->unmap(m.ptr, m.size);
    api_->address_free(m.ptr, m.size);
  }
  if (m.handle != 0) api_->release(m.handle);
}

}  // namespace arena::hip2hip
