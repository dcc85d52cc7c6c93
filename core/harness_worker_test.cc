#include "core/harness_worker.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace arena {
namespace {

TEST(HarnessPython, ARelativePathIsFromWhereTheArenaStarted) {
  // Workers start in other folders: a relative interpreter path would name
  // another file there.
  ASSERT_EQ(setenv("ARENA_PYTHON", "venv/bin/python", 1), 0);
  const std::string python = HarnessPython("/nowhere");
  EXPECT_TRUE(std::filesystem::path(python).is_absolute()) << python;
  EXPECT_EQ(python, (std::filesystem::current_path() / "venv/bin/python").string());
  // A bare name is looked up on the PATH, as given.
  ASSERT_EQ(setenv("ARENA_PYTHON", "python3", 1), 0);
  EXPECT_EQ(HarnessPython("/nowhere"), "python3");
  ASSERT_EQ(setenv("ARENA_PYTHON", "/opt/py/bin/python", 1), 0);
  EXPECT_EQ(HarnessPython("/nowhere"), "/opt/py/bin/python");
  // Unset: the project's .venv if there is one, else python3.
  ASSERT_EQ(unsetenv("ARENA_PYTHON"), 0);
  EXPECT_EQ(HarnessPython("/nowhere"), "python3");
}

}  // namespace
}  // namespace arena
