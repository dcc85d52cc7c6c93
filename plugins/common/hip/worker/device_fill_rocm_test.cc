// The judge's input generator, built for ROCm, compiles through hipRTC into
// an AMD code object (hipRTC needs no GPU); loading and drawing with it
// need an AMD GPU, which CI has not.
#include <string>

#include <gtest/gtest.h>

#include "plugins/common/hip/worker/device_fill.h"

namespace arena::hip2hip {
namespace {

TEST(DeviceFillRocm, TheGeneratorCompilesForAmdTargets) {
  for (const char* target : {"gfx908", "gfx90a"}) {
    auto code = DeviceFillPtx(target);
    ASSERT_TRUE(code.ok()) << target << ": " << code.status().message();
    ASSERT_GE(code->size(), 4u) << target;
    EXPECT_EQ(code->substr(0, 4), std::string("\x7f" "ELF")) << target;  // a code object, not text
    for (const char* kernel : {"arena_fill", "arena_gather", "arena_differs"}) {
      EXPECT_NE(code->find(kernel), std::string::npos) << target << ": " << kernel;
    }
  }
}

}  // namespace
}  // namespace arena::hip2hip
