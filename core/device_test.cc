// Device discovery loads the platforms' libraries by name: on any machine it
// returns, and either finds devices described in full or says why not.
#include "core/device.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(DiscoverDevices, FindsDevicesOrSaysWhyNot) {
  DeviceDiscovery d = DiscoverDevices();
  if (d.devices.empty()) {
    EXPECT_NE(d.note.find("no CUDA GPU ("), std::string::npos) << d.note;
    EXPECT_NE(d.note.find("AMD"), std::string::npos) << d.note;
  }
  for (const auto& dev : d.devices) {
    EXPECT_TRUE(dev.is_gpu());
    EXPECT_GE(dev.index, 0);
    EXPECT_FALSE(dev.name.empty());
    if (dev.platform == "cuda") {
      EXPECT_EQ(dev.arch.rfind("sm_", 0), 0u) << dev.arch;
      EXPECT_GT(dev.memory_bytes, 0);
      EXPECT_GT(dev.multiprocessors, 0);
      EXPECT_GT(dev.l2_bytes, 0);
    } else {
      EXPECT_EQ(dev.platform, "hip");
    }
  }
}

TEST(DeviceInfo, RoundTripsThroughJson) {
  DeviceInfo d;
  d.platform = "cuda";
  d.index = 1;
  d.name = "NVIDIA H200";
  d.arch = "sm_90";
  d.memory_bytes = 150109880320LL;
  d.l2_bytes = 62914560;
  d.multiprocessors = 132;
  d.driver = "13.0";
  DeviceInfo back = DeviceInfo::FromJson(d.ToJson());
  EXPECT_EQ(back.ToJson(), d.ToJson());
  EXPECT_EQ(back.Describe(), "cuda:1 NVIDIA H200 (sm_90)");
  EXPECT_EQ(CpuDevice().Describe(), "cpu (no GPU)");
  EXPECT_FALSE(CpuDevice().is_gpu());
}

}  // namespace
}  // namespace arena
