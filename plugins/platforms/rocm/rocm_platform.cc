// AMD GPUs through ROCm's HIP runtime, reached by loading libamdhip64 by
// name: the types and attribute numbers come from the HIP headers this is
// built against, the runtime itself only where it is installed.
#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <hip/hip_runtime_api.h>

#include "core/platform.h"

namespace arena {
namespace {

class RocmPlatform : public Platform {
 public:
  std::string Discover(std::vector<DeviceInfo>* devices) const override {
    void* lib = nullptr;
    for (const char* name : {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (lib == nullptr) return "no HIP runtime (libamdhip64 not found).";
    using GetCount = hipError_t (*)(int*);
    using GetName = hipError_t (*)(char*, int, hipDevice_t);
    using TotalMem = hipError_t (*)(size_t*, hipDevice_t);
    using Attribute = hipError_t (*)(int*, hipDeviceAttribute_t, int);
    using Properties = hipError_t (*)(hipDeviceProp_t*, int);
    using ErrorString = const char* (*)(hipError_t);
    auto get_count = reinterpret_cast<GetCount>(dlsym(lib, "hipGetDeviceCount"));
    auto get_name = reinterpret_cast<GetName>(dlsym(lib, "hipDeviceGetName"));
    auto total_mem = reinterpret_cast<TotalMem>(dlsym(lib, "hipDeviceTotalMem"));
    auto attribute = reinterpret_cast<Attribute>(dlsym(lib, "hipDeviceGetAttribute"));
    auto properties = reinterpret_cast<Properties>(dlsym(lib, "hipGetDeviceProperties"));
    auto driver_version = reinterpret_cast<GetCount>(dlsym(lib, "hipDriverGetVersion"));
    auto error_string = reinterpret_cast<ErrorString>(dlsym(lib, "hipGetErrorString"));
    if (!get_count || !get_name || !total_mem || !attribute || !properties) {
      return "the HIP runtime lacks the calls needed.";
    }
    int count = 0;
    hipError_t err = get_count(&count);
    if (err != hipSuccess) {
      const char* text = error_string != nullptr ? error_string(err) : nullptr;
      return "HIP runtime error " + std::to_string(static_cast<int>(err)) +
             (text != nullptr && *text ? std::string(": ") + text : std::string()) + ".";
    }
    if (count == 0) return "the HIP runtime sees no AMD GPU.";
    int driver = 0;
    if (driver_version != nullptr && driver_version(&driver) != hipSuccess) driver = 0;
    const size_t before = devices->size();
    for (int i = 0; i < count; ++i) {
      char name[256] = {0};
      size_t memory = 0;
      hipDeviceProp_t props{};
      if (get_name(name, sizeof(name) - 1, i) != hipSuccess ||
          total_mem(&memory, i) != hipSuccess || properties(&props, i) != hipSuccess) {
        continue;
      }
      int cus = 0, l2 = 0;
      if (attribute(&cus, hipDeviceAttributeMultiprocessorCount, i) != hipSuccess) cus = 0;
      if (attribute(&l2, hipDeviceAttributeL2CacheSize, i) != hipSuccess) l2 = 0;
      DeviceInfo d;
      d.index = i;
      d.name = name;
      // "gfx90a:sramecc+:xnack-": the target is the part before the features.
      d.arch = std::string(props.gcnArchName).substr(0, std::string(props.gcnArchName).find(':'));
      d.memory_bytes = static_cast<long long>(memory);
      d.l2_bytes = l2;
      d.multiprocessors = cus;
      if (driver > 0) d.driver = std::to_string(driver);
      devices->push_back(d);
    }
    return devices->size() > before ? "" : "no AMD GPU could be queried.";
  }

  std::string PromptDir() const override { return "plugins/platforms/rocm/prompts"; }
  DeviceAccess Access() const override {
    // The kernel driver's node and the GPUs' render nodes; the HSA runtime
    // reads the GPUs' topology from sysfs (kfd and the PCI devices it
    // names), so /sys is there read-only.
    DeviceAccess a;
    a.visible_devices = "HIP_VISIBLE_DEVICES";
    std::error_code ec;
    if (std::filesystem::exists("/dev/kfd", ec)) a.nodes.push_back("/dev/kfd");
    for (const auto& e : std::filesystem::directory_iterator("/dev/dri", ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("renderD", 0) == 0) a.nodes.push_back(e.path().string());
    }
    std::sort(a.nodes.begin(), a.nodes.end());
    if (std::filesystem::is_directory("/sys", ec)) a.read_only.push_back("/sys");
    return a;
  }
  std::string HardwareProfile(const DeviceInfo& device) const override {
    // The one AMD profile the prompts hold (rocm/prompts): the
    // data-center parts (gfx908, gfx90a, gfx94x) are CDNA.
    return "amd-cdna";
  }
};

}  // namespace

ARENA_REGISTER_PLATFORM("rocm", RocmPlatform);

}  // namespace arena
