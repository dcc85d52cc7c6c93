// Which GPUs this machine has, and of which platform.
//
// Both platforms are reached by loading their libraries by name (the NVIDIA
// driver's libcuda.so.1, the HIP runtime), never by linking: the arena's core
// builds without the CUDA toolkit, and on a machine without a driver it
// starts and reports "no GPU" with the reason.
//
//   DeviceDiscovery d = DiscoverDevices();
//   if (d.devices.empty()) std::cout << d.note;  // e.g. "no GPU: CUDA driver..."
#ifndef ARENA_CORE_DEVICE_H_
#define ARENA_CORE_DEVICE_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

struct DeviceInfo {
  std::string platform = "none";  // "cuda", "hip" or "none"
  int index = -1;                 // index within its platform
  std::string name = "cpu";
  std::string arch;               // "sm_90", "gfx90a"
  long long memory_bytes = 0;
  long long l2_bytes = 0;
  int multiprocessors = 0;
  std::string driver;             // the GPU driver's CUDA version, e.g. "13.0"

  bool is_gpu() const { return platform != "none"; }
  nlohmann::json ToJson() const;
  static DeviceInfo FromJson(const nlohmann::json& j);
  // "cuda:0 NVIDIA H200 (sm_90)" or "cpu (no GPU)".
  std::string Describe() const;
};

struct DeviceDiscovery {
  std::vector<DeviceInfo> devices;
  std::string note;  // why a platform contributed nothing
};

DeviceDiscovery DiscoverDevices();

// The device a CPU-only evaluation runs on.
DeviceInfo CpuDevice();

}  // namespace arena

#endif  // ARENA_CORE_DEVICE_H_
