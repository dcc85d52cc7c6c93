#include "core/device.h"

#include <dlfcn.h>

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

// The NVIDIA driver is reached by name, never linked: the arena builds
// without the CUDA toolkit and starts on a machine without the driver.
void DiscoverCuda(DeviceDiscovery* out) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    out->note += "no CUDA GPU (no NVIDIA driver: libcuda.so.1 not found). ";
    return;
  }
  using Init = int (*)(unsigned);
  using GetInt = int (*)(int*);
  using DeviceGet = int (*)(int*, int);
  using GetName = int (*)(char*, int, int);
  using TotalMem = int (*)(size_t*, int);
  using Attribute = int (*)(int*, int, int);
  using ErrorString = int (*)(int, const char**);
  auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"));
  auto count_of = reinterpret_cast<GetInt>(dlsym(lib, "cuDeviceGetCount"));
  auto device_get = reinterpret_cast<DeviceGet>(dlsym(lib, "cuDeviceGet"));
  auto get_name = reinterpret_cast<GetName>(dlsym(lib, "cuDeviceGetName"));
  auto total_mem = reinterpret_cast<TotalMem>(dlsym(lib, "cuDeviceTotalMem_v2"));
  auto attribute = reinterpret_cast<Attribute>(dlsym(lib, "cuDeviceGetAttribute"));
  auto driver_version = reinterpret_cast<GetInt>(dlsym(lib, "cuDriverGetVersion"));
  auto error_string = reinterpret_cast<ErrorString>(dlsym(lib, "cuGetErrorString"));
  if (!init || !count_of || !device_get || !get_name || !total_mem || !attribute) {
    out->note += "no CUDA GPU (the NVIDIA driver library lacks the calls needed). ";
    return;
  }
  int count = 0;
  int err = init(0);
  if (err == 0) err = count_of(&count);
  if (err != 0) {
    const char* text = nullptr;
    if (error_string == nullptr || error_string(err, &text) != 0 || text == nullptr) text = "";
    out->note += "no CUDA GPU (driver error " + std::to_string(err) + (*text ? ": " : "") + text + "). ";
    return;
  }
  int driver = 0;
  if (driver_version != nullptr) driver_version(&driver);
  // CUdevice_attribute values (cuda.h).
  constexpr int kMultiprocessors = 16, kL2Bytes = 38, kMajor = 75, kMinor = 76;
  for (int i = 0; i < count; ++i) {
    int dev = 0;
    char name[256] = {0};
    size_t memory = 0;
    int major = 0, minor = 0, sms = 0, l2 = 0;
    if (device_get(&dev, i) != 0 || get_name(name, sizeof(name) - 1, dev) != 0 ||
        total_mem(&memory, dev) != 0 || attribute(&major, kMajor, dev) != 0 ||
        attribute(&minor, kMinor, dev) != 0) {
      continue;
    }
    attribute(&sms, kMultiprocessors, dev);
    attribute(&l2, kL2Bytes, dev);
    DeviceInfo d;
    d.platform = "cuda";
    d.index = i;
    d.name = name;
    d.arch = "sm_" + std::to_string(major) + std::to_string(minor);
    d.memory_bytes = static_cast<long long>(memory);
    d.l2_bytes = l2;
    d.multiprocessors = sms;
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
