// The judge's input generator compiles (NVRTC needs no GPU); drawing with
// it is exercised on the GPU machine by the family's timing.
#include "plugins/common/hip/worker/device_fill.h"

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

TEST(DeviceFill, TheGeneratorCompilesForTheArchitecturesInUse) {
  for (const char* arch : {"compute_80", "compute_90"}) {
    auto ptx = DeviceFillPtx(arch);
    ASSERT_TRUE(ptx.ok()) << arch << ": " << ptx.status().message();
    EXPECT_NE(ptx->find(".entry arena_fill"), std::string::npos) << arch;
    EXPECT_NE(ptx->find(".entry arena_gather"), std::string::npos) << arch;
    EXPECT_NE(ptx->find(".entry arena_differs"), std::string::npos) << arch;
  }
}

TEST(DeviceFill, AnUnknownArchitectureIsAnError) {
  auto ptx = DeviceFillPtx("compute_1");
  EXPECT_FALSE(ptx.ok());
}

}  // namespace
}  // namespace arena::hip2hip
