#include "core/device.h"

#include "core/platform.h"

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

DeviceDiscovery DiscoverDevices() {
  DeviceDiscovery out;
  const auto names = PlatformRegistry::Global().Names();
  if (names.empty()) out.note = "no GPU platform is built into this program.";
  for (const auto& name : names) {
    auto platform = PlatformRegistry::Global().Create(name);
    if (!platform.ok()) continue;
    std::vector<DeviceInfo> found;
    const std::string why = (*platform)->Discover(&found);
    for (auto& d : found) {
      d.platform = name;
      out.devices.push_back(std::move(d));
    }
    if (found.empty()) {
      out.note += (out.note.empty() ? "" : " ") + name + ": " + (why.empty() ? "no device." : why);
    }
  }
  return out;
}

std::string HardwareProfile(const DeviceInfo& device) {
  if (!device.is_gpu()) return "cpu";
  auto platform = PlatformRegistry::Global().Create(device.platform);
  return platform.ok() ? (*platform)->HardwareProfile(device) : device.platform;
}

DeviceAccess AccessTo(const DeviceInfo& device) {
  if (!device.is_gpu()) return {};
  auto platform = PlatformRegistry::Global().Create(device.platform);
  if (!platform.ok()) return {};
  DeviceAccess a = (*platform)->Access();
  if (!a.visible_devices.empty()) a.env[a.visible_devices] = std::to_string(device.index);
  return a;
}

std::string PlatformPromptFile(const DeviceInfo& device) {
  if (!device.is_gpu()) return "";  // core's own (core/prompts/cpu.md, compiled in)
  auto platform = PlatformRegistry::Global().Create(device.platform);
  if (!platform.ok() || (*platform)->PromptDir().empty()) return "";
  return (*platform)->PromptDir() + "/" + (*platform)->HardwareProfile(device) + ".md";
}

}  // namespace arena
