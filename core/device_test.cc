// Device discovery asks every registered platform plugin; the real ones
// (plugins/platforms) are tested there.
#include "core/device.h"

#include <gtest/gtest.h>

#include "core/platform.h"

namespace arena {
namespace {

// Test platforms: one with two devices, one that finds none.
class TwoDevices : public Platform {
 public:
  std::string Discover(std::vector<DeviceInfo>* devices) const override {
    for (int i = 0; i < 2; ++i) {
      DeviceInfo d;
      d.index = i;
      d.name = "Fake GPU";
      d.arch = "fake_1";
      devices->push_back(d);
    }
    return "";
  }
  std::string HardwareProfile(const DeviceInfo& device) const override { return "fake-" + device.arch; }
};

class NoDevices : public Platform {
 public:
  std::string Discover(std::vector<DeviceInfo>*) const override { return "no fake driver."; }
  std::string HardwareProfile(const DeviceInfo&) const override { return "none"; }
};

ARENA_REGISTER_PLATFORM("afake", TwoDevices);
ARENA_REGISTER_PLATFORM("bfake", NoDevices);

TEST(DiscoverDevices, AsksEveryRegisteredPlatformAndNamesThoseWithout) {
  DeviceDiscovery d = DiscoverDevices();
  ASSERT_EQ(d.devices.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(d.devices[i].platform, "afake");  // set by discovery, not the plugin
    EXPECT_EQ(d.devices[i].index, i);
    EXPECT_TRUE(d.devices[i].is_gpu());
  }
  EXPECT_EQ(d.devices[1].Describe(), "afake:1 Fake GPU (fake_1)");
  EXPECT_EQ(d.note, "bfake: no fake driver.");
  EXPECT_EQ(HardwareProfile(d.devices[0]), "fake-fake_1");
  EXPECT_EQ(HardwareProfile(CpuDevice()), "cpu");
  DeviceInfo unknown;
  unknown.platform = "gone";
  EXPECT_EQ(HardwareProfile(unknown), "gone");  // a platform not built in
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
