// NVIDIA GPUs through the CUDA driver API, reached by loading the driver's
// libcuda.so.1 by name: nothing here needs the CUDA toolkit to build.
#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/platform.h"

namespace arena {
namespace {

class CudaPlatform : public Platform {
 public:
  std::string Discover(std::vector<DeviceInfo>* devices) const override {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return "no NVIDIA driver (libcuda.so.1 not found).";
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
      return "the NVIDIA driver library lacks the calls needed.";
    }
    int count = 0;
    int err = init(0);
    if (err == 0) err = count_of(&count);
    if (err != 0) {
      const char* text = nullptr;
      if (error_string == nullptr || error_string(err, &text) != 0 || text == nullptr) text = "";
      return "driver error " + std::to_string(err) + (*text ? ": " : "") + text + ".";
    }
    if (count == 0) return "the NVIDIA driver sees no GPU.";
    int driver = 0;
    if (driver_version != nullptr) driver_version(&driver);
    // CUdevice_attribute values (cuda.h).
    constexpr int kMultiprocessors = 16, kL2Bytes = 38, kMajor = 75, kMinor = 76;
    const size_t before = devices->size();
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
      d.index = i;
      d.name = name;
      d.arch = "sm_" + std::to_string(major) + std::to_string(minor);
      d.memory_bytes = static_cast<long long>(memory);
      d.l2_bytes = l2;
      d.multiprocessors = sms;
      if (driver > 0) d.driver = std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
      devices->push_back(d);
    }
    return devices->size() > before ? "" : "no GPU could be queried.";
  }

  std::string PromptDir() const override { return "plugins/platforms/cuda/prompts"; }
  DeviceAccess Access() const override {
    // The driver's nodes: /dev/nvidia0..., nvidiactl, nvidia-uvm.
    DeviceAccess a;
    a.visible_devices = "CUDA_VISIBLE_DEVICES";
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/dev", ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("nvidia", 0) == 0 && !e.is_directory(ec)) a.nodes.push_back(e.path().string());
    }
    std::sort(a.nodes.begin(), a.nodes.end());
    return a;
  }
  std::string HardwareProfile(const DeviceInfo& device) const override {
    return device.arch == "sm_90" ? "nvidia-hopper" : "nvidia";
  }
};

}  // namespace

ARENA_REGISTER_PLATFORM("cuda", CudaPlatform);

}  // namespace arena
