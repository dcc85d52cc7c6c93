// Which GPUs this machine has, and of which platform: each platform plugin
// built into the program (core/platform.h) is asked for its devices.
//
//   DeviceDiscovery d = DiscoverDevices();
//   if (d.devices.empty()) std::cout << d.note;  // e.g. "cuda: no NVIDIA driver..."
#ifndef ARENA_CORE_DEVICE_H_
#define ARENA_CORE_DEVICE_H_

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

struct DeviceInfo {
  std::string platform = "none";  // the platform plugin's name ("cuda", "rocm"), or "none"
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

// What a process needs to use one GPU alone, in its platform's words
// (Platform::Access; AccessTo below for a device).
struct DeviceAccess {
  std::vector<std::string> nodes;      // "/dev/nvidia0", "/dev/kfd"
  std::vector<std::string> read_only;  // folders the runtime reads ("/sys")
  std::string visible_devices;         // "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"
  std::map<std::string, std::string> env;  // AccessTo: {visible_devices: the index}
};

struct DeviceDiscovery {
  std::vector<DeviceInfo> devices;
  std::string note;  // "PLATFORM: why" for each platform that found nothing
};

// The devices of every registered platform, platforms in name order.
DeviceDiscovery DiscoverDevices();

// The hardware profile prompts name for `device` (its platform's word, e.g.
// "nvidia-hopper"; "cpu" for the CPU).
std::string HardwareProfile(const DeviceInfo& device);
// The cheatsheet an agent gets for `device`, a path under the project root:
// its platform's <PromptDir>/<profile>.md; "" when the platform has none
// and without a GPU (core's own cheatsheet then, compiled in).
std::string PlatformPromptFile(const DeviceInfo& device);

// What a sandboxed process needs to use `device` and no other GPU of its
// platform: its platform's Access, with `env` naming the device; nothing
// for the CPU or a platform not built in.
DeviceAccess AccessTo(const DeviceInfo& device);

// The device a CPU-only evaluation runs on.
DeviceInfo CpuDevice();

}  // namespace arena

#endif  // ARENA_CORE_DEVICE_H_
