#include "core/env.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace arena {
namespace {

constexpr char kName[] = "ARENA_ENV_TEST_SWITCH";

TEST(SwitchOnTest, OffOnlyWhereTheVariableIsZero) {
  ::unsetenv(kName);
  EXPECT_TRUE(SwitchOn(kName));
  for (const char* on : {"", "1", "00", "0 ", "no", "off"}) {
    ::setenv(kName, on, 1);
    EXPECT_TRUE(SwitchOn(kName)) << "'" << on << "'";
  }
  ::setenv(kName, "0", 1);
  EXPECT_FALSE(SwitchOn(kName));
  ::unsetenv(kName);
}

}  // namespace
}  // namespace arena
