// Both platforms are built in and asked on any machine: each finds devices
// described in full or says why it found none, and no platform's absence
// stops discovery.
#include <gtest/gtest.h>

#include "core/device.h"
#include "core/platform.h"

namespace arena {
namespace {

TEST(Platforms, BothAreRegistered) {
  EXPECT_TRUE(PlatformRegistry::Global().Contains("cuda"));
  EXPECT_TRUE(PlatformRegistry::Global().Contains("rocm"));
}

TEST(Platforms, FindDevicesOrSayWhyNot) {
  DeviceDiscovery d = DiscoverDevices();
  bool cuda = false, rocm = false;
  for (const auto& dev : d.devices) {
    EXPECT_TRUE(dev.is_gpu());
    EXPECT_GE(dev.index, 0);
    EXPECT_FALSE(dev.name.empty());
    EXPECT_GT(dev.memory_bytes, 0);
    EXPECT_GT(dev.multiprocessors, 0);
    if (dev.platform == "cuda") {
      cuda = true;
      EXPECT_EQ(dev.arch.rfind("sm_", 0), 0u) << dev.arch;
      EXPECT_GT(dev.l2_bytes, 0);
    } else {
      ASSERT_EQ(dev.platform, "rocm");
      rocm = true;
      EXPECT_EQ(dev.arch.rfind("gfx", 0), 0u) << dev.arch;
      EXPECT_EQ(dev.arch.find(':'), std::string::npos) << dev.arch;
    }
    EXPECT_FALSE(HardwareProfile(dev).empty());
  }
  // A platform that found nothing says so, by name.
  if (!cuda) {
    EXPECT_NE(d.note.find("cuda: "), std::string::npos) << d.note;
  }
  if (!rocm) {
    EXPECT_NE(d.note.find("rocm: "), std::string::npos) << d.note;
  }
}

TEST(Platforms, ProfilesNameThePromptsHardware) {
  auto cuda = PlatformRegistry::Global().Create("cuda");
  ASSERT_TRUE(cuda.ok());
  DeviceInfo h200;
  h200.platform = "cuda";
  h200.arch = "sm_90";
  EXPECT_EQ((*cuda)->HardwareProfile(h200), "nvidia-hopper");
  EXPECT_EQ(HardwareProfile(h200), "nvidia-hopper");
  h200.arch = "sm_80";
  EXPECT_EQ(HardwareProfile(h200), "nvidia");
  DeviceInfo mi;
  mi.platform = "rocm";
  mi.arch = "gfx90a";
  EXPECT_EQ(HardwareProfile(mi), "amd-cdna");
  EXPECT_EQ(HardwareProfile(CpuDevice()), "cpu");
}

}  // namespace
}  // namespace arena
