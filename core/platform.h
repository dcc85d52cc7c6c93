// A GPU platform (NVIDIA's CUDA, AMD's ROCm): how its devices are found and
// how they are named to an agent. Platforms are plugins, registered like
// task families; core names none of them:
//
//   class MyPlatform : public Platform { ... };
//   ARENA_REGISTER_PLATFORM("cuda", MyPlatform);
//
// A platform reaches its driver by loading the driver's library by name at
// run time, never by linking it: the arena builds without any vendor
// toolkit, and on a machine without the driver it starts and says why the
// platform found nothing.
#ifndef ARENA_CORE_PLATFORM_H_
#define ARENA_CORE_PLATFORM_H_

#include <string>
#include <vector>

#include "core/device.h"
#include "core/registry.h"

namespace arena {

class Platform {
 public:
  virtual ~Platform() = default;
  // Appends this platform's devices (their `platform` set to the name the
  // platform is registered under). Returns "" when it found some, else one
  // short sentence saying why none ("no NVIDIA driver: libcuda.so.1 not
  // found").
  virtual std::string Discover(std::vector<DeviceInfo>* devices) const = 0;
  // The hardware profile of `device` that prompts name ("nvidia-hopper",
  // "amd-cdna").
  virtual std::string HardwareProfile(const DeviceInfo& device) const = 0;
  // The folder, under the project root, of this platform's cheatsheets for
  // agents: one <profile>.md per hardware profile ("" when it has none).
  virtual std::string PromptDir() const { return ""; }
  // What a sandboxed process needs to use this platform's GPUs: the device
  // nodes of this machine (bound, nothing else of /dev), system folders
  // its runtime reads (bound read-only), and the variable that limits the
  // runtime to some of its devices ("CUDA_VISIBLE_DEVICES").
  virtual DeviceAccess Access() const { return {}; }
};

using PlatformRegistry = Registry<Platform>;

}  // namespace arena

#define ARENA_REGISTER_PLATFORM(name, Impl) \
  ARENA_REGISTER_PLUGIN_IMPL(::arena::Platform, name, Impl, __LINE__)

#endif  // ARENA_CORE_PLATFORM_H_
