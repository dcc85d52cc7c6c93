#include "core/device.h"

#include <dlfcn.h>

#include <cuda_runtime_api.h>

namespace arena {

nlohmann::json DeviceInfo::ToJson() const {
  return {{"platform", platform}, {"index", index}, {"name", name}, {"arch", arch},
          {"memory_bytes", memory_bytes}, {"l2_bytes", l2_bytes},
          {"multiprocessors", multiprocessors}, {"driver", driver}};
}

DeviceInfo DeviceInfo::FromJson(const nlohmann::json& j) {
  DeviceInfo d;
  d.platform = j.value("platform", "none");
  d.index = j.value("index", -1);
  d.name = j.value("name", "cpu");
  d.arch = j.value("arch", "");
  d.memory_bytes = j.value("memory_bytes", 0LL);
  d.l2_bytes = j.value("l2_bytes", 0LL);
  d.multiprocessors = j.value("multiprocessors", 0);
  d.driver = j.value("driver", "");
  return d;
}

std::string DeviceInfo::Describe() const {
  if (!is_gpu()) return "cpu (no GPU)";
  return platform + ":" + std::to_string(index) + " " + name + " (" + arch + ")";
}

DeviceInfo CpuDevice() { return DeviceInfo(); }

namespace {

void DiscoverCuda(DeviceDiscovery* out) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    out->note += std::string("no CUDA GPU (") + cudaGetErrorString(err) + "). ";
    return;
  }
  int driver = 0;
  cudaDriverGetVersion(&driver);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    DeviceInfo d;
    d.platform = "cuda";
    d.index = i;
    d.name = prop.name;
    d.arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
    d.memory_bytes = static_cast<long long>(prop.totalGlobalMem);
    d.l2_bytes = prop.l2CacheSize;
    d.multiprocessors = prop.multiProcessorCount;
    if (driver > 0) d.driver = std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
    out->devices.push_back(d);
  }
}

// The HIP runtime is optional: loaded by name, never linked.
void DiscoverHip(DeviceDiscovery* out) {
  void* lib = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    out->note += "no HIP runtime. ";
    return;
  }
  using GetCount = int (*)(int*);
  auto get_count = reinterpret_cast<GetCount>(dlsym(lib, "hipGetDeviceCount"));
  int count = 0;
  if (get_count == nullptr || get_count(&count) != 0 || count == 0) {
    out->note += "no AMD GPU. ";
    return;
  }
  for (int i = 0; i < count; ++i) {
    DeviceInfo d;
    d.platform = "hip";
    d.index = i;
    d.name = "AMD GPU";
    out->devices.push_back(d);
  }
}

}  // namespace

DeviceDiscovery DiscoverDevices() {
  DeviceDiscovery out;
  DiscoverCuda(&out);
  DiscoverHip(&out);
  while (!out.note.empty() && out.note.back() == ' ') out.note.pop_back();
  return out;
}

}  // namespace arena
